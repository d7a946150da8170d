import { merchantEndpoints as api, PAYMENT_STATUS_STREAM_PATH, requestIdParams } from '@ohgood/contract/payments';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireMerchant } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { type SseStream, sseStreams } from '../../http/sse';
import type { Clock } from '../../lib/clock';
import type { LiveStatus } from './live-status';
import type { MerchantService } from './service';

const TERMINAL = new Set(['PAID', 'EXPIRED', 'CANCELLED', 'REFUNDED']);

export function merchantRoutes(
  merchants: MerchantService,
  publicUrl: string | undefined,
  live: LiveStatus,
  clock: Clock,
  /** Live status streams per payment request on this instance (`STATUS_STREAMS_PER_REQUEST`). */
  streamsPerRequest: number,
): FastifyPluginAsyncZod {
  const originOf = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;

  return async (app) => {
    // Clients of a stream cut by a shutdown get a last event telling them to reconnect (to another instance).
    const openStream = sseStreams(app, { ceiling: streamsPerRequest });

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
      PAYMENT_STATUS_STREAM_PATH,
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
        let stream: SseStream | undefined;
        const onStatus = (status: string) => {
          if (!stream) {
            missed = true;
            return;
          }
          if (status !== last) {
            last = status;
            stream.send('status', { requestId, status });
          }
          if (TERMINAL.has(status)) stream.close();
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
        const recheck = () => live.refresh(requestId).catch(() => stream?.close());
        let expiryTimer: NodeJS.Timeout | undefined;
        last = current.status;
        stream = openStream(request, reply, {
          // With a test clock, expiry shows at a ping.
          onPing: () => {
            if (clock.now().getTime() >= current.expiresAt.getTime()) recheck();
          },
          onClose: () => {
            unwatch();
            clearTimeout(expiryTimer);
          },
          shutdownData: () => ({ requestId, status: last }),
          owner: requestId,
        });
        stream.send('status', { requestId, status: last });
        if (TERMINAL.has(last)) {
          stream.close();
          return;
        }
        if (missed) recheck();
        expiryTimer = setTimeout(recheck, Math.max(0, current.expiresAt.getTime() - clock.now().getTime()) + 50);
      },
    );
  };
}
