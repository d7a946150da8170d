import { portalEndpoints as api, merchantPaymentsEndpoints } from '@ohgood/contract/merchant-portal';
import type { PaymentRequestStatus } from '@ohgood/contract/payments';
import { merchantSettlementEndpoints as settlementApi } from '@ohgood/contract/settlements';
import { type WebhookEventType, webhookEndpoints as webhookApi } from '@ohgood/contract/webhooks';
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

/** The merchant API's endpoints take the portal's session in place of an `X-Merchant-Key` header. */
const session = { headers: {} };

/** The shop's settlements, newest day first (the latest 50). */
export const useSettlements = () =>
  useQuery({
    queryKey: portalKeys.settlements,
    queryFn: ({ signal }) => callPortal(settlementApi.list, { ...session, query: {}, signal }),
  });

/** One settlement with its lines, read when it is opened. */
export const useSettlement = (settlementId: number | null) =>
  useQuery({
    queryKey: portalKeys.settlement(settlementId ?? 0),
    enabled: settlementId !== null,
    queryFn: ({ signal }) =>
      callPortal(settlementApi.get, { ...session, params: { settlementId: settlementId ?? 0 }, signal }),
  });

export const useWebhooks = () =>
  useQuery({
    queryKey: portalKeys.webhooks,
    queryFn: ({ signal }) => callPortal(webhookApi.list, { ...session, signal }),
  });

/** The delivery log (latest 100), refreshed while the screen is open so a test event's outcome shows up. */
export const useDeliveries = () =>
  useQuery({
    queryKey: portalKeys.deliveries,
    queryFn: ({ signal }) => callPortal(webhookApi.deliveries, { ...session, query: {}, signal }),
    refetchInterval: 10_000,
  });

/**
 * Register, change events, delete, rotate, send a test, replay: each refreshes the endpoints and the log;
 * register and rotate answer the signing secret once.
 */
export function useWebhookActions() {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: portalKeys.webhooks });
  const endpoint = (endpointId: string) => ({ ...session, params: { endpointId } });
  return {
    create: useMutation({
      mutationFn: (body: { url: string; events: WebhookEventType[] }) =>
        callPortal(webhookApi.create, { ...session, body }),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: ({ endpointId, events }: { endpointId: string; events: WebhookEventType[] }) =>
        callPortal(webhookApi.update, { ...endpoint(endpointId), body: { events } }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (endpointId: string) => callPortal(webhookApi.remove, endpoint(endpointId)),
      onSuccess,
    }),
    rotate: useMutation({
      mutationFn: (endpointId: string) => callPortal(webhookApi.rotateSecret, endpoint(endpointId)),
      onSuccess,
    }),
    test: useMutation({
      mutationFn: (endpointId: string) => callPortal(webhookApi.test, endpoint(endpointId)),
      onSuccess,
    }),
    replay: useMutation({
      mutationFn: (deliveryId: number) => callPortal(webhookApi.replay, { ...session, params: { deliveryId } }),
      onSuccess,
    }),
  };
}
