import { createHash } from 'node:crypto';
import { maskAccount } from '@ohgood/contract/bank';
import { gradeOf } from '@ohgood/contract/grades';
import { kstDate, kstIso, kstMonth, monthDates } from '@ohgood/contract/kst';
import type { Bank } from '@ohgood/contract/limits';
import { PAY_MSG } from '@ohgood/contract/messages';
import {
  type FinalResult,
  type Mypage,
  type PaymentHistoryItem,
  type PointHistoryItem,
  pinCode,
  type ValidateBody,
  type ValidateResult,
} from '@ohgood/contract/payments';
import { POINT_REASON_LABELS } from '@ohgood/contract/point-reasons';
import { qrTokenFrom } from '@ohgood/contract/qr';
import { and, desc, eq, gt, gte, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, isActiveRequest, merchants, paymentRequests, pointLedger, purchases } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError, conflict, forbidden, notFound, tooMany, unprocessable } from '../../lib/errors';
import { oneAtATime } from '../../lib/one-at-a-time';
import { hit, type Window, windowStart } from '../../lib/rate-limit';
import { singleFlight } from '../../lib/single-flight';
import { limitLeft } from '../bills/statements';
import { createFinalHints } from './final-hints';
import { createFinalStore, type FinalSeen, type StoredAnswer } from './final-store';
import { createValidateStore, type HeldRequest } from './validate-store';

const FAILED_CODE_WINDOW = { limit: 5, windowMs: 10 * 60 * 1000 };
const VALIDATE_FAILURES_PER_IP = { limit: 60, windowMs: 10 * 60 * 1000 };
/**
 * Reads of one final before it gives up: each failed apply means another payment of the same customer (or a
 * change to their points or grade) went through in between, so only a burst of that customer's own payments
 * can exhaust them.
 */
const FINAL_ATTEMPTS = 30;

/** What an Idempotency-Key is bound to: the exact final call (request and points), hashed. */
export function finalRequestHash(requestId: string, point: number): string {
  return createHash('sha256').update(JSON.stringify({ requestId, point })).digest('hex');
}

/** Earned points: floor(owed × rate%), in integers (rates have one decimal: 0.2 % → 2 per mille). */
export function earnedPoints(owed: number, pointPercent: number): number {
  return Math.floor((owed * Math.round(pointPercent * 10)) / 1000);
}

/** The column each code type is looked up by. */
const codeColumn = { pincode: paymentRequests.pinCode, qrcode: paymentRequests.qrToken } as const;

/** The value a code is looked up by: the PIN, or the QR token of a token or deep link; undefined if malformed. */
function codeValue(body: ValidateBody): string | undefined {
  if (body.codeType === 'qrcode') return qrTokenFrom(body.value);
  return pinCode.safeParse(body.value).success ? body.value : undefined;
}

/** What validate answers about the request it reserved, read or written. */
const heldColumns = {
  id: paymentRequests.id,
  requestName: paymentRequests.requestName,
  totalPrice: paymentRequests.totalPrice,
  expiresAt: paymentRequests.expiresAt,
};

export interface PaymentService {
  validate(customerId: number, body: ValidateBody, ip: string): Promise<ValidateResult>;
  final(customerId: number, requestId: string, point: number, idempotencyKey?: string): Promise<FinalResult>;
  paymentHistory(customerId: number, month?: string): Promise<PaymentHistoryItem[]>;
  pointHistory(customerId: number, month?: string): Promise<PointHistoryItem[]>;
  mypage(customerId: number): Promise<Mypage>;
}

/** A final's decision: the stored answer of a replay, or the payment to write and what it adds to the bill. */
type FinalDecision = { replay: FinalResult } | { result: Omit<FinalResult, 'paymentId'>; owed: number };

/** The answer stored under an Idempotency-Key, only for the exact request it was first used with. */
function keyedAnswer(stored: StoredAnswer, requestHash: string): FinalResult {
  // The same key with another request or point amount is refused (422), never answered with another
  // payment's result.
  if (stored.requestHash !== requestHash) {
    throw unprocessable('IDEMPOTENCY_KEY_REUSED', PAY_MSG.idempotencyKeyReused);
  }
  return stored.response;
}

/**
 * Every rule of a final, on what was read (docs/rules/payments.md#P10): throws the refusal, in the contract's
 * error order, or answers the replay or the payment to write.
 */
function decideFinal(
  seen: FinalSeen,
  { customerId, point, requestHash, now }: { customerId: number; point: number; requestHash: string; now: Date },
): FinalDecision {
  if (seen.callerAnswer) return { replay: keyedAnswer(seen.callerAnswer, requestHash) };
  const { request } = seen;
  if (!request) throw notFound('PAYMENT_REQUEST_NOT_FOUND', PAY_MSG.noRequest);
  if (request.status === 'PAID') {
    // The same final again (a retry, a double tap): the first result, nothing written.
    if (request.reservedBy === customerId && seen.requestAnswer) return { replay: seen.requestAnswer.response };
    throw conflict('ALREADY_PAID', '이미 결제된 요청입니다.');
  }
  if (request.status !== 'ACTIVE' || request.expiresAt.getTime() <= now.getTime()) {
    throw conflict('REQUEST_NOT_ACTIVE', PAY_MSG.notActive);
  }
  if (request.reservedBy === null) throw conflict('REQUEST_NOT_VALIDATED', PAY_MSG.notValidated);
  if (request.reservedBy !== customerId) throw conflict('REQUEST_RESERVED', PAY_MSG.reserved);
  if (seen.suspended) throw forbidden('ACCOUNT_SUSPENDED', PAY_MSG.suspended);
  const points = seen.pointBalance;
  if (point < 0 || point > Math.min(request.totalPrice, points)) {
    throw unprocessable('INVALID_POINT', PAY_MSG.invalidPoint);
  }
  const owed = request.totalPrice - point;
  const available = limitLeft(seen.gradePoint, seen.owed);
  if (owed > available) throw unprocessable('LIMIT_EXCEEDED', PAY_MSG.limitExceeded);
  const earned = earnedPoints(owed, gradeOf(seen.gradePoint).pointPercent);
  return {
    owed,
    result: {
      price: request.totalPrice,
      pointUsed: point,
      pointEarned: earned,
      // Written only if this customer's lines are still what was read: this UNPAID purchase is the only new one.
      balance: available - owed,
      // Written only if the balance is still what was read: this payment's postings are its only movements.
      pointBalance: points - point + earned,
    },
  };
}

export function createPaymentService(
  db: Db,
  clock: Clock,
  { finalAttempts = FINAL_ATTEMPTS }: { finalAttempts?: number } = {},
): PaymentService {
  const invalidCode = () => notFound('INVALID_CODE', PAY_MSG.invalidCode);

  /**
   * Validate's one read (batched with concurrent validates): the failed-code limits, my row and what I owe this
   * month, and the request if I already hold it (a reopened sheet, a scanner seeing the code twice), which then
   * needs no write at all.
   */
  const validateStore = createValidateStore(db, {
    failures: FAILED_CODE_WINDOW.limit,
    ipFailures: VALIDATE_FAILURES_PER_IP.limit,
  });

  const finalStore = createFinalStore(db);
  const hints = createFinalHints();
  const finalOnce = singleFlight<FinalResult>();
  const customerFinals = oneAtATime();

  /**
   * A final is a read without locks (or, on its first attempt, what this instance last saw: `final-hints.ts`),
   * the decision (`decideFinal`), then a write that first checks that what was read still holds
   * (`final-store.ts`, ADR 0108/0109). If it changed, nothing is written and the call reads and decides again.
   * Each lost race means another payment of this customer went through, so the loop ends.
   */
  async function payFinal(
    customerId: number,
    requestId: string,
    point: number,
    idempotencyKey: string | undefined,
  ): Promise<FinalResult> {
    const requestHash = finalRequestHash(requestId, point);
    const callerKey = idempotencyKey ? `key:${idempotencyKey}` : null;
    for (let attempt = 1; attempt <= finalAttempts; attempt++) {
      const now = clock.now();
      const month = kstMonth(now);
      // The first attempt may decide on what this instance last saw instead of reading (final-hints.ts).
      const hinted = attempt === 1 ? hints.seen(customerId, requestId, month) : undefined;
      const seen = hinted ?? (await finalStore.read({ customerId, requestId, month, callerKey }));
      if (!seen) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      if (!hinted) hints.customer(customerId, seen, month);
      let decision: FinalDecision;
      try {
        decision = decideFinal(seen, { customerId, point, requestHash, now });
      } catch (refusal) {
        // A refusal is only ever answered on a fresh read.
        if (hinted) continue;
        throw refusal;
      }
      if ('replay' in decision) return decision.replay;
      const { result, owed } = decision;
      const applied = await finalStore.apply({
        customerId,
        requestId,
        totalPrice: result.price,
        now,
        kstDate: kstDate(now),
        month,
        seenBalance: seen.pointBalance,
        seenGradePoint: seen.gradePoint,
        seenOwed: seen.owed,
        pointUsed: point,
        pointEarned: result.pointEarned,
        response: result,
        callerKey,
        requestHash: callerKey ? requestHash : null,
      });
      if (applied.outcome === 'applied') {
        hints.forgetRequest(requestId);
        const written = { pointBalance: result.pointBalance, owed: seen.owed + owed };
        hints.customer(customerId, { ...seen, ...written }, month);
        return { paymentId: applied.paymentId, ...result };
      }
      // 'key_taken': a concurrent call stored this key first, and the next read answers from it. 'stale': read again.
    }
    throw conflict('PAYMENT_BUSY', PAY_MSG.busy);
  }

  /**
   * Validate's write path, for a code this customer does not hold yet: reserves the request it points at if it
   * is free, or refuses (counting the failure unless the code is one of the customer's own).
   */
  async function reserveCode(
    customerId: number,
    codeType: ValidateBody['codeType'],
    code: string | undefined,
    now: Date,
    [failures, ipFailures]: [Window, Window],
  ): Promise<HeldRequest> {
    // The request the code points at (undefined for a malformed code, which matches nothing).
    const match = code === undefined ? undefined : eq(codeColumn[codeType], code);
    const usable = match && and(match, isActiveRequest, gt(paymentRequests.expiresAt, now));
    const heldByMe = async (): Promise<HeldRequest | undefined> =>
      usable
        ? (
            await db
              .select(heldColumns)
              .from(paymentRequests)
              .where(and(usable, eq(paymentRequests.reservedBy, customerId)))
          )[0]
        : undefined;
    // Only a free request is written, reserved in one conditional update (free → mine).
    let reserved: HeldRequest | undefined;
    if (usable) {
      [reserved] = await db
        .update(paymentRequests)
        .set({ reservedBy: customerId })
        .where(and(usable, isNull(paymentRequests.reservedBy)))
        .returning(heldColumns);
      // My own concurrent validate (a double tap) may have reserved it between the two statements.
      if (!reserved) reserved = await heldByMe();
    }
    if (!reserved) {
      // A code this customer already holds or paid is not a guess (a scanner seeing it again, issue #14):
      // it is refused the same way but does not count towards the brute-force lock.
      const [mine] = match
        ? await db
            .select({ id: paymentRequests.id })
            .from(paymentRequests)
            .where(and(match, eq(paymentRequests.reservedBy, customerId)))
            .limit(1)
        : [];
      if (!mine) {
        await hit(db, failures, now);
        await hit(db, ipFailures, now);
      }
      const [taken] = match
        ? await db
            .select({ id: paymentRequests.id })
            .from(paymentRequests)
            .where(and(match, isActiveRequest, gt(paymentRequests.expiresAt, now)))
        : [];
      if (taken) throw conflict('REQUEST_RESERVED', PAY_MSG.reserved);
      // Unknown, expired, paid and cancelled codes all look the same: no oracle.
      throw invalidCode();
    }
    return reserved;
  }

  return {
    async validate(customerId, body, ip) {
      const now = clock.now();
      // Only failed codes count — per customer and per IP — so customers sharing a NAT are not locked out
      // by each other's payments.
      const failures = { key: `pay-code-fail:${customerId}`, ...FAILED_CODE_WINDOW };
      const ipFailures = { key: `pay-code-fail-ip:${ip}`, ...VALIDATE_FAILURES_PER_IP };
      const code = codeValue(body);
      const month = kstMonth(now);
      const me = await validateStore.read({
        customerId,
        codeType: body.codeType,
        code: code ?? null,
        now,
        month,
        failures: { key: failures.key, start: windowStart(now, failures.windowMs) },
        ipFailures: { key: ipFailures.key, start: windowStart(now, ipFailures.windowMs) },
      });
      if (!me) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      if (me.over) throw tooMany('TOO_MANY_CODE_ATTEMPTS', PAY_MSG.tooManyCodes);
      if (me.suspended) throw forbidden('ACCOUNT_SUSPENDED', PAY_MSG.suspended);

      const reserved = me.held ?? (await reserveCode(customerId, body.codeType, code, now, [failures, ipFailures]));
      // What a final of this request will most likely find (final-hints.ts).
      hints.customer(customerId, me, month);
      hints.request(reserved.id, {
        customerId,
        totalPrice: reserved.totalPrice,
        expiresAt: new Date(reserved.expiresAt),
      });
      return {
        requestName: reserved.requestName,
        price: reserved.totalPrice,
        point: me.pointBalance,
        balance: limitLeft(me.gradePoint, me.owed),
        requestId: reserved.id,
      };
    },

    final(customerId, requestId, point, idempotencyKey) {
      // A double tap sends the same final twice at once: on this instance the second one waits for the first
      // and answers its result, which is what the database would answer it anyway (the stored first result).
      const call = `${customerId}:${requestId}:${point}:${idempotencyKey ?? ''}`;
      // One customer's other finals on this instance run one after another, each reading what the previous
      // one wrote: read together, all but one of them would find their read stale and read again.
      return finalOnce(call, () =>
        customerFinals(String(customerId), () => payFinal(customerId, requestId, point, idempotencyKey)),
      );
    },

    async paymentHistory(customerId, month) {
      const conditions: SQL[] = [eq(purchases.customerId, customerId)];
      if (month) conditions.push(eq(purchases.statementMonth, month));
      const rows = await db
        .select({
          paymentId: purchases.id,
          createdAt: purchases.createdAt,
          requestName: purchases.requestName,
          merchant: merchants.name,
          totalPrice: purchases.totalPrice,
          point: purchases.pointUsed,
          price: purchases.price,
          pointEarned: purchases.pointEarned,
          status: purchases.status,
        })
        .from(purchases)
        .innerJoin(merchants, eq(merchants.id, purchases.merchantId))
        .where(and(...conditions))
        .orderBy(desc(purchases.createdAt), desc(purchases.id));
      return rows.map(({ createdAt, status, ...row }) => ({
        ...row,
        date: kstIso(createdAt),
        status: status as PaymentHistoryItem['status'],
      }));
    },

    async pointHistory(customerId, month) {
      const conditions: SQL[] = [eq(pointLedger.customerId, customerId)];
      if (month) {
        const { first, nextFirst } = monthDates(month);
        conditions.push(gte(pointLedger.kstDate, first), lt(pointLedger.kstDate, nextFirst));
      }
      // A payment's and a refund's rows point at the purchase (its id as text): its merchant names the line.
      const rows = await db
        .select({
          createdAt: pointLedger.createdAt,
          reason: pointLedger.reason,
          amount: pointLedger.amount,
          merchant: merchants.name,
        })
        .from(pointLedger)
        .leftJoin(
          purchases,
          and(inArray(pointLedger.refType, ['purchase', 'refund']), sql`${purchases.id}::text = ${pointLedger.refId}`),
        )
        .leftJoin(merchants, eq(merchants.id, purchases.merchantId))
        .where(and(...conditions))
        .orderBy(desc(pointLedger.createdAt), desc(pointLedger.id));
      return rows.map((row) => ({
        date: kstIso(row.createdAt),
        pointExplain: POINT_REASON_LABELS[row.reason],
        point: row.amount,
        merchant: row.merchant,
      }));
    },

    async mypage(customerId) {
      const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
      if (!customer) throw new AppError(404, 'CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      const grade = gradeOf(customer.gradePoint);
      return {
        name: customer.name,
        emailId: customer.email,
        gradeName: grade.name,
        pointPercent: grade.pointPercent,
        gradePoint: customer.gradePoint,
        account: maskAccount(customer.account),
        accountName: customer.accountName as Bank,
        point: customer.pointBalance,
      };
    },
  };
}
