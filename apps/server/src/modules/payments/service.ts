import { createHash } from 'node:crypto';
import { maskAccount } from '@ohgood/contract/bank';
import { gradeOf } from '@ohgood/contract/grades';
import { kstIso, kstMonth, monthDates } from '@ohgood/contract/kst';
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
import { and, desc, eq, gte, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { claim, release } from '../../db/rate-limit-counters';
import { customers, merchants, paymentRequests, pointLedger, purchases } from '../../db/schema';
import { isRetryable, type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { AppError, conflict, forbidden, notFound, tooMany, unprocessable } from '../../lib/errors';
import type { Window } from '../../lib/rate-limit';
import { singleFlight } from '../../lib/single-flight';
import { limitLeft } from '../bills/statements';
import { type FinalSeen, readFinal, type StoredAnswer } from './final-read';
import { earnedPoints, writePayments } from './payment-write';
import { isUsableRequest, usableRequestSql } from './usable-request';
import { type HeldRequest, readValidate } from './validate-read';

const FAILED_CODE_WINDOW = { limit: 5, windowMs: 10 * 60 * 1000 };
/**
 * Failed codes per address, from all its customers: a ceiling for one machine guessing codes through many
 * accounts, far above what a NAT or office full of customers mistyping (5 each, FAILED_CODE_WINDOW) reaches.
 */
export const VALIDATE_FAILURES_PER_IP = { limit: 600, windowMs: 10 * 60 * 1000 };

/** What an Idempotency-Key is bound to: the exact final call (request and points), hashed. */
export function finalRequestHash(requestId: string, point: number): string {
  return createHash('sha256').update(JSON.stringify({ requestId, point })).digest('hex');
}

/** The column each code type is looked up by. */
/** A suspended customer's refusal, in the words of why: an overdue bill, or an operator (bills-and-grades.md#B10). */
const suspendedRefusal = (byStaff: boolean) =>
  forbidden('ACCOUNT_SUSPENDED', byStaff ? PAY_MSG.suspendedByStaff : PAY_MSG.suspended);

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

/** A final's decision: the stored answer of a replay, or the payment to write. */
type FinalDecision = { replay: FinalResult } | { result: Omit<FinalResult, 'paymentId'> };

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
  if (!isUsableRequest(request, now)) throw conflict('REQUEST_NOT_ACTIVE', PAY_MSG.notActive);
  if (request.reservedBy === null) throw conflict('REQUEST_NOT_VALIDATED', PAY_MSG.notValidated);
  if (request.reservedBy !== customerId) throw conflict('REQUEST_RESERVED', PAY_MSG.reserved);
  if (seen.suspended) throw suspendedRefusal(seen.staffSuspended);
  const points = seen.pointBalance;
  if (point < 0 || point > Math.min(request.totalPrice, points)) {
    throw unprocessable('INVALID_POINT', PAY_MSG.invalidPoint);
  }
  const owed = request.totalPrice - point;
  const available = limitLeft(seen, seen.owed);
  if (owed > available) throw unprocessable('LIMIT_EXCEEDED', PAY_MSG.limitExceeded);
  const earned = earnedPoints(owed, gradeOf(seen.gradePoint).pointPercent);
  return {
    result: {
      price: request.totalPrice,
      pointUsed: point,
      pointEarned: earned,
      balance: available - owed,
      pointBalance: points - point + earned,
    },
  };
}

export function createPaymentService(db: Db, clock: Clock): PaymentService {
  const invalidCode = () => notFound('INVALID_CODE', PAY_MSG.invalidCode);
  const finalOnce = singleFlight<FinalResult>();

  /**
   * A final is one transaction (ADR 0112): the customer's and the request's rows locked in the order of
   * db/tx.ts and read (`readFinal`), the decision (`decideFinal`, pure), and the payment's write in one
   * statement (`writePayments`). What the decision read cannot change before the write: every path that
   * changes it holds the customer's lock. A deadlock or serialization failure reruns the whole transaction.
   */
  async function payFinal(
    customerId: number,
    requestId: string,
    point: number,
    idempotencyKey: string | undefined,
  ): Promise<FinalResult> {
    const requestHash = finalRequestHash(requestId, point);
    const callerKey = idempotencyKey ? `key:${idempotencyKey}` : null;
    const paid = withTx(db, async (tx) => {
      const now = clock.now();
      const seen = await readFinal(tx, { customerId, requestId, month: kstMonth(now), callerKey });
      if (!seen) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      const decision = decideFinal(seen, { customerId, point, requestHash, now });
      if ('replay' in decision) return decision.replay;
      const request = seen.request;
      if (!request) throw new Error('a final decided to pay without a request');
      const answer: FinalResult = { paymentId: seen.paymentId, ...decision.result };
      await writePayments(
        tx,
        [
          {
            paymentId: seen.paymentId,
            customerId,
            request,
            pointUsed: point,
            pointEarned: decision.result.pointEarned,
            at: now,
            answer,
            callerKey: callerKey ? { key: callerKey, requestHash } : null,
          },
        ],
        new Map([[customerId, seen.pointBalance]]),
      );
      return answer;
    });
    // Still deadlocked after withTx's retries: nothing was written, and the caller may simply try again.
    return paid.catch((error: unknown) => {
      throw isRetryable(error) ? conflict('PAYMENT_BUSY', PAY_MSG.busy) : error;
    });
  }

  /**
   * Validate's write path, for a code this customer does not hold yet: reserves the request it points at if it
   * is free, or refuses (counting the failure unless the code is one of the customer's own).
   *
   * Each guess is counted before the code is looked at (docs/security.md, "limits that can be raced"): the
   * address's ceiling in one statement of its own, the customer's window in the transaction that checks the
   * code. That claim holds the customer's counter row until the transaction ends, so a customer's checks run
   * one after another and each sees the failures before it: 150 codes at once get 5 checks, while a double
   * tap of a right code is still answered twice (a right code gives its place back before the next looks).
   */
  async function reserveCode(
    customerId: number,
    codeType: ValidateBody['codeType'],
    code: string | undefined,
    now: Date,
    [failures, ipFailures]: [Window, Window],
  ): Promise<HeldRequest> {
    if (!(await claim(db, [ipFailures], now)).granted) throw tooMany('TOO_MANY_CODE_ATTEMPTS', PAY_MSG.tooManyCodes);
    const checked = await withTx(db, async (tx) => {
      if (!(await claim(tx, [failures], now)).granted) return 'refused' as const;
      const found = await lookUpCode(tx, customerId, codeType, code, now);
      if (found.guess === false) await release(tx, [failures, ipFailures], now);
      return found;
    }).catch(async (error: unknown) => {
      await release(db, [ipFailures], now);
      throw error;
    });
    if (checked === 'refused') {
      await release(db, [ipFailures], now);
      throw tooMany('TOO_MANY_CODE_ATTEMPTS', PAY_MSG.tooManyCodes);
    }
    if (checked.reserved) return checked.reserved;
    if (checked.taken) throw conflict('REQUEST_RESERVED', PAY_MSG.reserved);
    // Unknown, expired, paid and cancelled codes all look the same: no oracle.
    throw invalidCode();
  }

  /**
   * The code's request reserved for this customer if it is free, else what refuses it. `guess` is false for
   * a code that is one of the customer's own (reserved now, or held or paid before): a scanner seeing it again
   * is not guessing.
   */
  async function lookUpCode(
    tx: Tx,
    customerId: number,
    codeType: ValidateBody['codeType'],
    code: string | undefined,
    now: Date,
  ): Promise<{ reserved?: HeldRequest; taken?: boolean; guess: boolean }> {
    // The request the code points at (undefined for a malformed code, which matches nothing).
    const match = code === undefined ? undefined : eq(codeColumn[codeType], code);
    const usable = match && and(match, usableRequestSql(now));
    if (!match || !usable) return { guess: true };
    // Only a free request is written, reserved in one conditional update (free → mine); my own earlier
    // validate may hold it already.
    const [reserved] = await tx
      .update(paymentRequests)
      .set({ reservedBy: customerId })
      .where(and(usable, isNull(paymentRequests.reservedBy)))
      .returning(heldColumns);
    const [held] = reserved
      ? [reserved]
      : await tx
          .select(heldColumns)
          .from(paymentRequests)
          .where(and(usable, eq(paymentRequests.reservedBy, customerId)));
    if (held) return { reserved: held, guess: false };
    const [mine] = await tx
      .select({ id: paymentRequests.id })
      .from(paymentRequests)
      .where(and(match, eq(paymentRequests.reservedBy, customerId)))
      .limit(1);
    const [taken] = await tx.select({ id: paymentRequests.id }).from(paymentRequests).where(usable);
    return { taken: Boolean(taken), guess: !mine };
  }

  return {
    async validate(customerId, body, ip) {
      const now = clock.now();
      // Only failed codes count — per customer and per IP — so customers sharing a NAT are not locked out
      // by each other's payments.
      const failures = { key: `pay-code-fail:${customerId}`, ...FAILED_CODE_WINDOW };
      const ipFailures = { key: `pay-code-fail-ip:${ip}`, ...VALIDATE_FAILURES_PER_IP };
      const code = codeValue(body);
      const me = await readValidate(db, {
        customerId,
        match: code === undefined ? undefined : eq(codeColumn[body.codeType], code),
        now,
        month: kstMonth(now),
        windows: [failures, ipFailures],
      });
      if (!me) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      if (me.over) throw tooMany('TOO_MANY_CODE_ATTEMPTS', PAY_MSG.tooManyCodes);
      if (me.suspended) throw suspendedRefusal(me.staffSuspended);

      const reserved = me.held ?? (await reserveCode(customerId, body.codeType, code, now, [failures, ipFailures]));
      return {
        requestName: reserved.requestName,
        price: reserved.totalPrice,
        point: me.pointBalance,
        balance: limitLeft(me, me.owed),
        requestId: reserved.id,
      };
    },

    final(customerId, requestId, point, idempotencyKey) {
      // A double tap sends the same final twice at once: on this instance the second one waits for the first
      // and answers its result, which is what the database would answer it anyway (the stored first result).
      const call = `${customerId}:${requestId}:${point}:${idempotencyKey ?? ''}`;
      return finalOnce(call, () => payFinal(customerId, requestId, point, idempotencyKey));
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
