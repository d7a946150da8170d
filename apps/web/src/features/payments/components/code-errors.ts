import { PAY_MSG } from '@ohgood/contract/messages';
import { ApiError } from '../../../shared/api-client';

/** Spec §8: 400, 404, 410 and expired/missing-code answers read '유효하지않은 코드입니다.'. */
export function codeErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if ([400, 404, 410].includes(error.status) || /만료|없습니다|expired|missing/i.test(error.message)) {
      return PAY_MSG.invalidCode;
    }
    if ([403, 409, 429].includes(error.status)) return error.message;
  }
  return PAY_MSG.pinFailed;
}
