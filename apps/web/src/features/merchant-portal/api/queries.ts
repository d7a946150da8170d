import { portalEndpoints as api, merchantPaymentsEndpoints } from '@ohgood/contract/merchant-portal';
import type { PaymentRequestStatus } from '@ohgood/contract/payments';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callPortal } from './portal-api';

/** A payments filter as the portal sends it (an absent key is no filter). */
export interface PaymentFilter {
  from?: string;
  to?: string;
  status?: PaymentRequestStatus;
  orderId?: string;
}

/* The portal's query keys (its own cache): each screen's reads under one prefix. */
export const portalKeys = {
  payments: ['portal', 'payments'],
  paymentList: (filter: PaymentFilter) => ['portal', 'payments', filter],
  keys: ['portal', 'keys'],
  settlements: ['portal', 'settlements'],
  settlement: (id: number) => ['portal', 'settlements', id],
  webhooks: ['portal', 'webhooks'],
  deliveries: ['portal', 'webhooks', 'deliveries'],
  enrolment: (token: string) => ['portal', 'enrolment', token],
} as const;

/** Newest first, a page at a time: each page asks from the previous page's cursor. */
export const usePayments = (filter: PaymentFilter) =>
  useInfiniteQuery({
    queryKey: portalKeys.paymentList(filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callPortal(merchantPaymentsEndpoints.payments, {
        query: { ...filter, ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useApiKeys = () =>
  useQuery({ queryKey: portalKeys.keys, queryFn: ({ signal }) => callPortal(api.keys, { signal }) });

export const useEnrolment = (token: string) =>
  useQuery({
    queryKey: portalKeys.enrolment(token),
    queryFn: ({ signal }) => callPortal(api.enrolment, { params: { token }, signal }),
  });

export function useRefund() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, reason }: { requestId: string; reason: string }) =>
      callPortal(api.refund, { params: { requestId }, body: { reason } }),
    onSuccess: () => client.invalidateQueries({ queryKey: portalKeys.payments }),
  });
}

/** Create, rotate or revoke a key: each refetches the list; create and rotate answer the new key once. */
export function useKeyActions() {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: portalKeys.keys });
  return {
    create: useMutation({ mutationFn: () => callPortal(api.createKey), onSuccess }),
    rotate: useMutation({
      mutationFn: (keyId: number) => callPortal(api.rotateKey, { params: { keyId } }),
      onSuccess,
    }),
    revoke: useMutation({
      mutationFn: (keyId: number) => callPortal(api.revokeKey, { params: { keyId } }),
      onSuccess,
    }),
  };
}
