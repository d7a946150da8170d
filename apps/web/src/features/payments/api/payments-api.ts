import { paymentEndpoints as api, type FinalResult } from '@ohgood/contract/payments';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys, invalidateAfter } from '../../../shared/query-keys';

export type CodeType = 'pincode' | 'qrcode';

/** The payments feature's keys: one list per KST month ('YYYY-MM'). */
export const paymentKeys = {
  history: (month: string) => [...dataKeys.paymentHistory, month] as const,
  points: (month: string) => [...dataKeys.pointHistory, month] as const,
};

export function usePaymentHistory(month: string) {
  return useQuery({
    queryKey: paymentKeys.history(month),
    queryFn: () => callEndpoint(api.paymentHistory, { query: { month } }),
  });
}

export function usePointHistory(month: string) {
  return useQuery({
    queryKey: paymentKeys.points(month),
    queryFn: () => callEndpoint(api.pointHistory, { query: { month } }),
  });
}

/** A scanned or typed code → the merchant's open request. Reads only: nothing to invalidate. */
export function useValidateCode() {
  return useMutation({
    mutationFn: ({ codeType, value }: { codeType: CodeType; value: string }) =>
      callEndpoint(api.validate, { body: { codeType, value } }),
  });
}

export interface FinalPaymentInput {
  requestId: string;
  point: number;
  /** One per opened request: a double tap or a retry after a timeout cannot pay twice. */
  idempotencyKey: string;
}

/**
 * Pays an open request. On success exactly what a payment changes is refetched (the shared registry's
 * `payment`), without holding up the receipt.
 */
export function useFinalPayment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, point, idempotencyKey }: FinalPaymentInput): Promise<FinalResult> =>
      callEndpoint(api.final, { query: { point, requestId }, headers: { 'idempotency-key': idempotencyKey } }).then(
        (body) => body.result,
      ),
    onSuccess: () => {
      void invalidateAfter(client, 'payment');
    },
  });
}
