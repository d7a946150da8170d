// The payment final as the benches load it: every request tapped twice (a double tap must pay once), each
// tap with the token of the customer who validated that request. Plain Node, no dependencies.
import { eachCall } from './bench-load.mjs';

/**
 * autocannon options for `toPay.length * 2` finals: request i's two taps are sent one after the other.
 * @param {string} base the server's origin
 * @param {Array<{ requestId: string, token: string }>} toPay validated requests and their customers' tokens
 */
export function doubleTappedFinals(base, toPay) {
  const tap = (r) => ({
    method: 'POST',
    path: `/api/payment/final?point=0&requestId=${r.requestId}`,
    headers: { authorization: `Bearer ${r.token}` },
  });
  return eachCall(
    base,
    toPay.flatMap((r) => [tap(r), tap(r)]),
  );
}
