import { createHash } from 'node:crypto';
import { kstMonth } from '@ohgood/contract/kst';
import { PAY_MSG } from '@ohgood/contract/messages';
import { type FinalResult, pinCode, type ValidateBody, type ValidateResult } from '@ohgood/contract/payments';
import { qrTokenFrom } from '@ohgood/contract/qr';
import { and } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { claim, release } from '../../db/rate-limit-counters';
import { isRetryable, type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { conflict, notFound, tooMany } from '../../lib/errors';
import type { Window } from '../../lib/rate-limit';
import { singleFlight } from '../../lib/single-flight';
import { limitLeft } from '../bills/statements';
import { decideFinal, suspendedRefusal } from './final-decision';
import { readFinal } from './final-read';
import { writePayments } from './payment-write';
import { anyRequest, everHeldBy, requestHeldBy, reserveFreeRequest } from './payments-repository';
import { codeMatch, usableRequestSql } from './usable-request';
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

/** The value a code is looked up by: the PIN, or the QR token of a token or deep link; undefined if malformed. */
function codeValue(body: ValidateBody): string | undefined {
  if (body.codeType === 'qrcode') return qrTokenFrom(body.value);
  return pinCode.safeParse(body.value).success ? body.value : undefined;
}

/** What a customer does to pay: validate a code (reserving its request) and pay it (the final). */
export function createPaymentActions(db: Db, clock: Clock) {
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
    const match = codeMatch(codeType, code);
    const usable = match && and(match, usableRequestSql(now));
    if (!match || !usable) return { guess: true };
    // Only a free request is written, reserved in one conditional update (free → mine); my own earlier
    // validate may hold it already.
    const held = (await reserveFreeRequest(tx, usable, customerId)) ?? (await requestHeldBy(tx, usable, customerId));
    if (held) return { reserved: held, guess: false };
    const mine = await everHeldBy(tx, match, customerId);
    return { taken: await anyRequest(tx, usable), guess: !mine };
  }

  return {
    async validate(customerId: number, body: ValidateBody, ip: string): Promise<ValidateResult> {
      const now = clock.now();
      // Only failed codes count — per customer and per IP — so customers sharing a NAT are not locked out
      // by each other's payments.
      const failures = { key: `pay-code-fail:${customerId}`, ...FAILED_CODE_WINDOW };
      const ipFailures = { key: `pay-code-fail-ip:${ip}`, ...VALIDATE_FAILURES_PER_IP };
      const code = codeValue(body);
      const me = await readValidate(db, {
        customerId,
        codeType: body.codeType,
        code,
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

    final(customerId: number, requestId: string, point: number, idempotencyKey?: string): Promise<FinalResult> {
      // A double tap sends the same final twice at once: on this instance the second one waits for the first
      // and answers its result, which is what the database would answer it anyway (the stored first result).
      const call = `${customerId}:${requestId}:${point}:${idempotencyKey ?? ''}`;
      return finalOnce(call, () => payFinal(customerId, requestId, point, idempotencyKey));
    },
  };
}
