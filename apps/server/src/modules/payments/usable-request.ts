import { and, gt, type SQL } from 'drizzle-orm';
import { isActiveRequest, paymentRequests } from '../../db/schema';

/**
 * A request a customer can still validate or pay (docs/rules/payments.md#P4, #P6): ACTIVE and not yet expired at
 * `now`. `usableRequestSql` filters rows by it in a query; `isUsableRequest` decides it on a row already read
 * (the final's decision). The same rule, tested to agree.
 */
export function usableRequestSql(now: Date): SQL {
  return and(isActiveRequest, gt(paymentRequests.expiresAt, now)) as SQL;
}

export function isUsableRequest(request: { status: string; expiresAt: Date }, now: Date): boolean {
  return request.status === 'ACTIVE' && request.expiresAt.getTime() > now.getTime();
}
