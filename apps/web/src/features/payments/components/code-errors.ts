import type { ErrorCode } from '@ohgood/contract/errors';
import { PAY_MSG } from '@ohgood/contract/messages';
import { ApiError } from '../../../shared/api-client';

/** The server's answers for an expired, cancelled or unknown code (the customer reads them all as an invalid code). */
const INVALID_CODE_CODES: ReadonlySet<ErrorCode> = new Set([
  'INVALID_CODE',
  'REQUEST_NOT_ACTIVE',
  'PAYMENT_REQUEST_NOT_FOUND',
]);

/**
 * As on the server (docs/rules/payments.md#P6), 400, 404, 410 and expired/missing-code answers all read
 * '유효하지않은 코드입니다.'.
 */
export function codeErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if ([400, 404, 410].includes(error.status) || INVALID_CODE_CODES.has(error.code)) return PAY_MSG.invalidCode;
    if ([403, 409, 429].includes(error.status)) return error.message;
  }
  return PAY_MSG.pinFailed;
}
