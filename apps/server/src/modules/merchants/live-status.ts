import type { PaymentRequestStatus } from '@ohgood/contract/payments';
import { sql } from 'drizzle-orm';
import type { PgListener } from '../../db/pg-listener';
import { type EventConsumer, eventTypes } from '../../events/relay';
import type { MerchantService } from './service';

type Listener = (status: PaymentRequestStatus) => void;

/** Watchers of one request, by merchant (a stream is authorised for its own merchant only). */
type Watch = Map<number, Set<Listener>>;

/** The events of a request's status changes: each is recorded in the transaction that changes the status. */
const STATUS_EVENTS = ['payment.completed', 'payment.cancelled', 'payment.refunded', 'payment.expired'] as const;

/**
 * Status changes, announced from the outbox: no transaction that changes a request's status notifies (a
 * notifying commit holds a cluster-wide lock through its disk flush, so finals, refunds and cancels would
 * commit one at a time; ADRs 0139, 0252), so this consumer of the relay tells the streams of every instance
 * which requests changed. The notification is transactional: it goes out when the delivery commits.
 */
export const requestStatusAnnouncer: EventConsumer = {
  // The name it had when it announced PAID only: failed deliveries wait for their retry under it.
  name: 'merchant-paid-status',
  wants: eventTypes(...STATUS_EVENTS),
  async handle(batch, { tx }) {
    // The batch holds only the events `wants` took, each of one request.
    const changed = batch.flatMap(({ event }) => ('requestId' in event ? [event.requestId] : []));
    await tx.execute(
      sql`select pg_notify('payment_request_status', id) from unnest(${sql.param(changed)}::text[]) as id`,
    );
  },
};

/**
 * Live status of payment requests for every open stream of this instance. `requestStatusAnnouncer` notifies
 * `payment_request_status` with the request id of each status change, from its event (any instance, job or
 * code path); the one LISTEN connection hands it here, the status is read once per changed request and fanned
 * out to its watchers. Idle streams cost no query.
 */
export function createLiveStatus(merchants: MerchantService, notifications: PgListener) {
  const watches = new Map<string, Watch>();
  let subscribed: Promise<unknown> | undefined;

  async function refresh(requestId: string): Promise<void> {
    for (const [merchantId, listeners] of watches.get(requestId) ?? []) {
      const { status } = await merchants.status(merchantId, requestId);
      for (const listener of [...listeners]) listener(status);
    }
  }

  function changed(requestId: string): void {
    // '*' after a reconnect: anything may have changed during the gap.
    const ids = requestId === '*' ? [...watches.keys()] : watches.has(requestId) ? [requestId] : [];
    for (const id of ids) refresh(id).catch(() => undefined);
  }

  return {
    /** Resolves once changes are being listened to; returns the function that stops watching. */
    async watch(merchantId: number, requestId: string, listener: Listener): Promise<() => void> {
      subscribed ??= notifications.subscribe('payment_request_status', changed);
      await subscribed;
      const watch: Watch = watches.get(requestId) ?? new Map();
      watches.set(requestId, watch);
      const listeners = watch.get(merchantId) ?? new Set();
      watch.set(merchantId, listeners);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) watch.delete(merchantId);
        if (watch.size === 0 && watches.get(requestId) === watch) watches.delete(requestId);
      };
    },

    /** Re-reads one request now (its expiry time came). */
    refresh,

    /** Open watches, for tests and the bench. */
    size(): number {
      let n = 0;
      for (const watch of watches.values()) for (const listeners of watch.values()) n += listeners.size;
      return n;
    },
  };
}

export type LiveStatus = ReturnType<typeof createLiveStatus>;
