import {
  merchantEndpoints as api,
  type CreatePaymentRequestBody,
  PAYMENT_STATUS_STREAM_PATH,
  type PaymentRequestStatus,
} from '@ohgood/contract/payments';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, fillPath } from '../../../shared/api-client';
import { followEventStream } from '../../../shared/event-stream';

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

/**
 * Follows the live status stream (Server-Sent Events) through the shared reader, which sends the key header
 * (EventSource cannot). Resolves at a final status or when the signal aborts; a stream that ends before that
 * (a server instance shutting down, or the stream's time limit) is followed again, with back-off after
 * failures; a refused key or an unknown request rejects.
 */
export async function followStatus(
  key: string,
  requestId: string,
  onStatus: (status: PaymentRequestStatus) => void,
  signal: AbortSignal,
): Promise<void> {
  let last: PaymentRequestStatus | null = null;
  await followEventStream({
    url: fillPath(PAYMENT_STATUS_STREAM_PATH, { requestId }),
    headers: () => ({ 'x-merchant-key': key }),
    onEvent: ({ type, data }) => {
      if (type !== 'status') return;
      last = (JSON.parse(data) as { status: PaymentRequestStatus }).status;
      onStatus(last);
    },
    signal,
    keepFollowing: () => last === null || last === 'ACTIVE',
  });
}
