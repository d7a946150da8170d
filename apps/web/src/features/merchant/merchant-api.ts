import {
  merchantEndpoints as api,
  type CreatePaymentRequestBody,
  type PaymentRequestStatus,
} from '@ohgood/contract/payments';
import { callEndpoint } from '../../shared/api-client';

export const createPaymentRequest = (key: string, body: CreatePaymentRequestBody) =>
  callEndpoint(api.create, { headers: { 'x-merchant-key': key }, body });

export const cancelPaymentRequest = (key: string, requestId: string) =>
  callEndpoint(api.cancel, { headers: { 'x-merchant-key': key }, params: { requestId } });

/**
 * Follows the live status stream (SSE). EventSource cannot send the key header, so this reads the
 * event stream through fetch. Resolves when the stream ends (terminal status) or the signal aborts.
 */
export async function followStatus(
  key: string,
  requestId: string,
  onStatus: (status: PaymentRequestStatus) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await fetch(`/api/merchant/payment-requests/${requestId}/events`, {
    headers: { 'x-merchant-key': key, accept: 'text/event-stream' },
    signal,
  });
  if (!res.ok || !res.body) throw new Error(`status stream failed: ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  while (true) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      if (data) onStatus((JSON.parse(data.slice(6)) as { status: PaymentRequestStatus }).status);
      end = buffer.indexOf('\n\n');
    }
  }
}
