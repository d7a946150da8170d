import type { FinalSeen } from './final-store';

/**
 * What this instance last saw of each customer's payment state and of each request a customer reserved, from
 * validate and from earlier finals (ADR 0109). A final may decide on it instead of reading first, because the
 * write step checks, under lock, every fact a decision rests on and writes nothing if one changed (the final
 * then reads and decides again). So a hint can make a final take one more round trip, never answer otherwise.
 * Only a decision to pay is taken on a hint: a refusal is always decided on a fresh read.
 */
export interface CustomerFacts {
  suspended: boolean;
  pointBalance: number;
  gradePoint: number;
  /** This month's unpaid total. */
  owed: number;
}

export interface RequestFacts {
  customerId: number;
  totalPrice: number;
  expiresAt: Date;
}

export interface FinalHints {
  /** What a read (or a write) showed of the customer, for `month`; only these fields are kept. */
  customer(customerId: number, facts: CustomerFacts, month: string): void;
  request(requestId: string, facts: RequestFacts): void;
  /** A paid (or no longer payable) request: its replays read the stored answer. */
  forgetRequest(requestId: string): void;
  /** The state a final of this customer and request would read, as last seen; undefined if not known. */
  seen(customerId: number, requestId: string, month: string): FinalSeen | undefined;
}

/** At most `capacity` customers and as many requests; the oldest entries go first. */
export function createFinalHints(capacity = 50_000): FinalHints {
  const customers = new Map<number, CustomerFacts & { month: string }>();
  const requests = new Map<string, RequestFacts>();
  const put = <K, V>(map: Map<K, V>, key: K, value: V) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > capacity) map.delete(map.keys().next().value as K);
  };
  return {
    customer: (customerId, { suspended, pointBalance, gradePoint, owed }, month) =>
      put(customers, customerId, { suspended, pointBalance, gradePoint, owed, month }),
    request: (requestId, facts) => put(requests, requestId, facts),
    forgetRequest: (requestId) => requests.delete(requestId),
    seen(customerId, requestId, month) {
      const customer = customers.get(customerId);
      const request = requests.get(requestId);
      if (!customer || !request || customer.month !== month || request.customerId !== customerId) return undefined;
      return {
        suspended: customer.suspended,
        pointBalance: customer.pointBalance,
        gradePoint: customer.gradePoint,
        owed: customer.owed,
        request: {
          status: 'ACTIVE',
          reservedBy: customerId,
          expiresAt: request.expiresAt,
          totalPrice: request.totalPrice,
        },
        requestAnswer: null,
        callerAnswer: null,
      };
    },
  };
}
