import { merchantEndpoints as api, requestIdParams } from '@ohgood/contract/payments';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { registerEndpoint } from '../../http/endpoint';
import { authenticateMerchant } from './keys';
import type { MerchantService } from './service';

const TERMINAL = new Set(['PAID', 'EXPIRED', 'CANCELLED', 'REFUNDED']);
const STREAM_POLL_MS = 700;
const STREAM_MAX_MS = 10 * 60 * 1000;
/** Last event of a stream cut by a shutdown: the status so far, and reconnect in about a second. */
const SHUTDOWN_EVENT = 'event: reconnect\nretry: 1000\n';

export function merchantRoutes(
  db: Db,
  merchants: MerchantService,
  publicUrl: string | undefined,
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
      merchants.create(await authenticateMerchant(db, request), request.body, originOf(request)),
    );

    registerEndpoint(app, api.get, async (request) =>
      merchants.get(await authenticateMerchant(db, request), request.params.requestId, originOf(request)),
    );

    registerEndpoint(app, api.cancel, async (request) =>
      merchants.cancel(await authenticateMerchant(db, request), request.params.requestId, originOf(request)),
    );

    registerEndpoint(app, api.refund, async (request) =>
      merchants.refund(await authenticateMerchant(db, request), request.params.requestId, originOf(request)),
    );

    /*
     * Live status for checkout screens (Server-Sent Events). It reads the database, not process memory,
     * so it works whichever instance took the payment. The stream ends at a terminal status.
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
        const merchantId = await authenticateMerchant(db, request);
        const { requestId } = request.params;
        let last = await merchants.status(merchantId, requestId);
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        const send = (status: string) => res.write(`event: status\ndata: ${JSON.stringify({ requestId, status })}\n\n`);
        send(last);
        if (TERMINAL.has(last)) {
          res.end();
          return;
        }
        const startedAt = Date.now();
        let closed = false;
        const timer = setInterval(async () => {
          try {
            const status = await merchants.status(merchantId, requestId);
            if (status !== last) {
              last = status;
              send(status);
            }
            if (TERMINAL.has(status) || Date.now() - startedAt > STREAM_MAX_MS) stop();
            else res.write(': ping\n\n');
          } catch {
            stop();
          }
        }, STREAM_POLL_MS);
        function stop(final?: string) {
          if (closed) return;
          closed = true;
          clearInterval(timer);
          openStreams.delete(stop);
          res.end(final ? `${final}data: ${JSON.stringify({ requestId, status: last })}\n\n` : undefined);
        }
        openStreams.add(stop);
        request.raw.on('close', stop);
      },
    );
  };
}
