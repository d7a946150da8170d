import type { ValidateBody } from '@ohgood/contract/payments';
import { and, eq, gt, type Placeholder, type SQL } from 'drizzle-orm';
import { isActiveRequest, paymentRequests } from '../../db/schema';

/**
 * A request a customer can still validate or pay (docs/rules/payments.md#P4, #P6): ACTIVE and not yet expired at
 * `now`. `usableRequestSql` filters rows by it in a query; `isUsableRequest` decides it on a row already read
 * (the final's decision). The same rule, tested to agree.
 */
export function usableRequestSql(now: Date | Placeholder): SQL {
  return and(isActiveRequest, gt(paymentRequests.expiresAt, now)) as SQL;
}

export function isUsableRequest(request: { status: string; expiresAt: Date }, now: Date): boolean {
  return request.status === 'ACTIVE' && request.expiresAt.getTime() > now.getTime();
}

/** The column each code type is looked up by. */
const codeColumn = { pincode: paymentRequests.pinCode, qrcode: paymentRequests.qrToken } as const;

/**
 * Where the requests a code points at; undefined for a malformed code, which matches nothing. The code may be
 * a statement's placeholder (validate's read, built once).
 */
export function codeMatch(codeType: ValidateBody['codeType'], code: string | Placeholder | undefined): SQL | undefined {
  return code === undefined ? undefined : eq(codeColumn[codeType], code);
}
