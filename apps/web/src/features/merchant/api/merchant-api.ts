import {
  merchantEndpoints as api,
  type CreatePaymentRequestBody,
  type PaymentRequestStatus,
} from '@ohgood/contract/payments';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/customer-api';

/* The merchant's checkout: writes with the merchant's key and a live stream; no customer data is cached. */

export function useCreatePaymentRequest() {
  return useMutation({
    mutationFn: ({ key, body }: { key: string; body: CreatePaymentRequestBody }) =>
      callEndpoint(api.create, { headers: { 'x-merchant-key': key }, body }),
  });
}

export function useCancelPaymentRequest() {
  return useMutation({
    mutationFn: ({ key, requestId }: { key: string; requestId: string }) =>
      callEndpoint(api.cancel, { headers: { 'x-merchant-key': key }, params: { requestId } }),
  });
}

/** Wait before following again after a stream ended early (an instance shutting down says ~1 s). */
const RECONNECT_MS = 1_000;

/**
 * Follows the live status stream (SSE). EventSource cannot send the key header, so this reads the
 * event stream through fetch. Resolves at a final status or when the signal aborts; a stream that ends
 * before that (a server instance shutting down, or the stream's time limit) is followed again.
 */
export async function followStatus(
  key: string,
  requestId: string,
  onStatus: (status: PaymentRequestStatus) => void,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    const last = await followOnce(key, requestId, onStatus, signal);
    if (last !== 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

/** One stream; returns the last status it reported. */
async function followOnce(
  key: string,
  requestId: string,
  onStatus: (status: PaymentRequestStatus) => void,
  signal: AbortSignal,
): Promise<PaymentRequestStatus | null> {
  const res = await fetch(`/api/merchant/payment-requests/${requestId}/events`, {
    headers: { 'x-merchant-key': key, accept: 'text/event-stream' },
    signal,
  });
  if (!res.ok || !res.body) throw new Error(`status stream failed: ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let last: PaymentRequestStatus | null = null;
  while (true) {
    const { value, done } = await reader.read();
    if (done) return last;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      if (data) {
        last = (JSON.parse(data.slice(6)) as { status: PaymentRequestStatus }).status;
        onStatus(last);
      }
      end = buffer.indexOf('\n\n');
    }
  }
}
