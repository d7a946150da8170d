import type { Harness } from './harness';
import { bearer } from './harness';

let order = 0;

/** Merchant creates a request through the API; returns its JSON view. */
export async function createRequest(
  h: Harness,
  merchantHeaders: Record<string, string>,
  totalPrice: number,
  requestName = '아메리카노',
) {
  order += 1;
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/merchant/payment-requests',
    headers: merchantHeaders,
    payload: { orderId: `order-${Date.now()}-${order}`, requestName, totalPrice },
  });
  if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json() as {
    requestId: string;
    pinCode: string;
    qrCode: string;
    status: string;
    qrImage: string;
    expiresAt: string;
  };
}

export function validatePin(h: Harness, token: string, pin: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/payment/validate',
    headers: bearer(token),
    payload: { codeType: 'pincode', value: pin },
  });
}

export function finalPay(
  h: Harness,
  token: string,
  requestId: string,
  point = 0,
  headers: Record<string, string> = {},
) {
  return h.app.inject({
    method: 'POST',
    url: `/api/payment/final?point=${point}&requestId=${requestId}`,
    headers: { ...bearer(token), ...headers },
  });
}

/** Create → validate by PIN → final; returns the final response. */
export async function pay(
  h: Harness,
  merchantHeaders: Record<string, string>,
  token: string,
  totalPrice: number,
  point = 0,
) {
  const request = await createRequest(h, merchantHeaders, totalPrice);
  const validated = await validatePin(h, token, request.pinCode);
  if (validated.statusCode !== 200) throw new Error(`validate failed: ${validated.body}`);
  const res = await finalPay(h, token, request.requestId, point);
  return { request, res };
}
