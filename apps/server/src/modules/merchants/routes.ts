import { errorBody } from '@ohgood/contract/envelope';
import { createPaymentRequestBody, paymentRequestView, requestIdParams } from '@ohgood/contract/payments';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireMerchant } from '../../http/auth-guard';
import type { MerchantService } from './service';

const TERMINAL = new Set(['PAID', 'EXPIRED', 'CANCELLED', 'REFUNDED']);
const STREAM_POLL_MS = 700;
const STREAM_MAX_MS = 10 * 60 * 1000;

const errors = { 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody, 422: errorBody };
const tags = ['merchant'];
const security = [{ merchantKey: [] }];

export function merchantRoutes(merchants: MerchantService, publicUrl: string | undefined): FastifyPluginAsyncZod {
  const originOf = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;

  return async (app) => {
    const openStreams = new Set<() => void>();
    app.addHook('onClose', async () => {
      for (const stop of openStreams) stop();
    });

    app.post(
      '/api/merchant/payment-requests',
      {
        config: { access: 'merchant' },
        schema: {
          tags,
          security,
          summary: '결제 요청 생성 (주문번호로 멱등)',
          body: createPaymentRequestBody,
          response: { 200: paymentRequestView, ...errors },
        },
      },
      async (request) => merchants.create(requireMerchant(request), request.body, originOf(request)),
    );

    app.get(
      '/api/merchant/payment-requests/:requestId',
      {
        config: { access: 'merchant' },
        schema: {
          tags,
          security,
          summary: '결제 요청 조회',
          params: requestIdParams,
          response: { 200: paymentRequestView, ...errors },
        },
      },
      async (request) => merchants.get(requireMerchant(request), request.params.requestId, originOf(request)),
    );

    app.post(
      '/api/merchant/payment-requests/:requestId/cancel',
      {
        config: { access: 'merchant' },
        schema: {
          tags,
          security,
          summary: '결제 요청 취소',
          params: requestIdParams,
          response: { 200: paymentRequestView, ...errors },
        },
      },
      async (request) => merchants.cancel(requireMerchant(request), request.params.requestId, originOf(request)),
    );

    app.post(
      '/api/merchant/payment-requests/:requestId/refund',
      {
        config: { access: 'merchant' },
        schema: {
          tags,
          security,
          summary: '결제 환불 (90일 이내)',
          params: requestIdParams,
          response: { 200: paymentRequestView, ...errors },
        },
      },
      async (request) => merchants.refund(requireMerchant(request), request.params.requestId, originOf(request)),
    );

    /*
     * Live status for checkout screens (Server-Sent Events). It reads the database, not process memory,
     * so it works whichever instance took the payment. The stream ends at a terminal status.
     */
    app.get(
      '/api/merchant/payment-requests/:requestId/events',
      {
        config: { access: 'merchant' },
        schema: { tags, security, summary: '결제 상태 스트림 (SSE)', params: requestIdParams },
      },
      async (request, reply) => {
        const merchantId = requireMerchant(request);
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
        function stop() {
          if (closed) return;
          closed = true;
          clearInterval(timer);
          openStreams.delete(stop);
          res.end();
        }
        openStreams.add(stop);
        request.raw.on('close', stop);
      },
    );
  };
}
