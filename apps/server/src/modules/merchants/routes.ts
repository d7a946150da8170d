import { merchantEndpoints as api, requestIdParams } from '@ohgood/contract/payments';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireMerchant } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import type { Clock } from '../../lib/clock';
import type { LiveStatus } from './live-status';
import type { MerchantService } from './service';

const TERMINAL = new Set(['PAID', 'EXPIRED', 'CANCELLED', 'REFUNDED']);
const STREAM_PING_MS = 15_000;
const STREAM_MAX_MS = 10 * 60 * 1000;
/** Last event of a stream cut by a shutdown: the status so far, and reconnect in about a second. */
const SHUTDOWN_EVENT = 'event: reconnect\nretry: 1000\n';

export function merchantRoutes(
  merchants: MerchantService,
  publicUrl: string | undefined,
  live: LiveStatus,
  clock: Clock,
): FastifyPluginAsyncZod {
  const originOf = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;

  return async (app) => {
    const openStreams = new Set<(final?: string) => void>();
    // preClose, not onClose: the server waits for open connections before onClose, and a stream never ends
    // by itself. Clients get a last event telling them to reconnect (to another instance).
    app.addHook('preClose', async () => {
      for (const stop of openStreams) stop(SHUTDOWN_EVENT);
    });

    registerEndpoint(app, api.create, async (request) =>
      merchants.create(requireMerchant(request), request.body, originOf(request)),
    );

    registerEndpoint(app, api.get, async (request) =>
      merchants.get(requireMerchant(request), request.params.requestId, originOf(request)),
    );

    registerEndpoint(app, api.cancel, async (request) =>
      merchants.cancel(requireMerchant(request), request.params.requestId, originOf(request)),
    );

    registerEndpoint(app, api.refund, async (request) =>
      merchants.refund(requireMerchant(request), request.params.requestId, originOf(request)),
    );

    /*
     * Live status for checkout screens (Server-Sent Events). Changes arrive by PostgreSQL LISTEN/NOTIFY
     * (live-status.ts), so it works whichever instance took the payment and an idle stream runs no query;
     * a timer re-reads at the request's expiry. The stream ends at a terminal status.
     */
    app.get(
      '/api/merchant/payment-requests/:requestId/events',
      {
        config: { access: 'merchant' },
        schema: {
          tags: ['merchant'],
          security: [{ merchantKey: [] }],
          summary: '결제 상태 스트림 (SSE, 계약 밖: JSON 본문 없음)',
          params: requestIdParams,
        },
      },
      async (request, reply) => {
        const merchantId = requireMerchant(request);
        const { requestId } = request.params;
        let last: string | undefined;
        let missed = false;
        let closed = false;
        const res = reply.raw;
        const send = (status: string) => res.write(`event: status\ndata: ${JSON.stringify({ requestId, status })}\n\n`);
        const onStatus = (status: string) => {
          if (closed) return;
          if (last === undefined) {
            missed = true;
            return;
          }
          if (status !== last) {
            last = status;
            send(status);
          }
          if (TERMINAL.has(status)) stop();
        };
        // Listen first, then read: a change in between is seen either by the read or by the listener.
        const unwatch = await live.watch(merchantId, requestId, onStatus);
        let current: Awaited<ReturnType<MerchantService['status']>>;
        try {
          current = await merchants.status(merchantId, requestId);
        } catch (error) {
          unwatch();
          throw error;
        }
        reply.hijack();
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        last = current.status;
        send(last);
        const timers: NodeJS.Timeout[] = [];
        function stop(final?: string) {
          if (closed) return;
          closed = true;
          unwatch();
          for (const timer of timers) clearTimeout(timer);
          openStreams.delete(stop);
          res.end(final ? `${final}data: ${JSON.stringify({ requestId, status: last })}\n\n` : undefined);
        }
        if (TERMINAL.has(last)) {
          stop();
          return;
        }
        openStreams.add(stop);
        request.raw.on('close', stop);
        const recheck = () => live.refresh(requestId).catch(() => stop());
        if (missed) recheck();
        timers.push(
          setTimeout(recheck, Math.max(0, current.expiresAt.getTime() - clock.now().getTime()) + 50),
          setTimeout(stop, STREAM_MAX_MS),
          // A comment line keeps proxies from closing an idle stream; with a test clock, expiry shows here.
          setInterval(() => {
            res.write(': ping\n\n');
            if (clock.now().getTime() >= current.expiresAt.getTime()) recheck();
          }, STREAM_PING_MS),
        );
      },
    );
  };
}
