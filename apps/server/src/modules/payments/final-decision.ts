import { gradeOf } from '@ohgood/contract/grades';
import { PAY_MSG } from '@ohgood/contract/messages';
import type { FinalResult } from '@ohgood/contract/payments';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/errors';
import { limitLeft } from '../bills/statements';
import type { FinalSeen, StoredAnswer } from './final-read';
import { earnedPoints } from './payment-write';
import { isUsableRequest } from './usable-request';

/** The rules of validate's and the final's refusals and the final's amounts, on what was read; no SQL. */

/** A suspended customer's refusal, in the words of why: an overdue bill, or an operator (bills-and-grades.md#B10). */
export const suspendedRefusal = (byStaff: boolean) =>
  forbidden('ACCOUNT_SUSPENDED', byStaff ? PAY_MSG.suspendedByStaff : PAY_MSG.suspended);

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
export function decideFinal(
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
