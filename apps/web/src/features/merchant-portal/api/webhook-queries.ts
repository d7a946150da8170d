import { type WebhookEventType, webhookEndpoints as webhookApi } from '@ohgood/contract/webhooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callPortal, merchantApiSession as session } from './portal-api';
import { portalKeys } from './queries';

/* The webhooks screen's reads and writes, in its own chunk with the webhook contract it needs. */

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
