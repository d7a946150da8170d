import { errorBody } from '@ohgood/contract/envelope';
import {
  finalQuery,
  finalResponse,
  monthQuery,
  mypageResponse,
  paymentHistoryItem,
  pointHistoryItem,
  validateBody,
  validateResponse,
} from '@ohgood/contract/payments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCustomer } from '../../http/auth-guard';
import { ok } from '../../lib/envelope';
import type { PaymentService } from './service';

const errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  422: errorBody,
  429: errorBody,
};
const security = [{ bearer: [] }];

export function paymentRoutes(payments: PaymentService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/payment/validate',
      {
        schema: {
          tags: ['payment'],
          security,
          summary: 'PIN/QR 코드 확인 및 예약',
          body: validateBody,
          response: { 200: validateResponse, ...errors },
        },
      },
      async (request) => ok(await payments.validate(requireCustomer(request), request.body, request.ip)),
    );

    app.post(
      '/api/payment/final',
      {
        schema: {
          tags: ['payment'],
          security,
          summary: '결제 확정 (멱등)',
          querystring: finalQuery,
          headers: z.looseObject({ 'idempotency-key': z.string().min(1).max(128).optional() }),
          response: { 200: finalResponse, ...errors },
        },
      },
      async (request) => {
        const { point, requestId } = request.query;
        const key = request.headers['idempotency-key'];
        const result = await payments.final(requireCustomer(request), requestId, point, key);
        return { success: true as const, result };
      },
    );

    app.get(
      '/api/payment/history',
      {
        schema: {
          tags: ['payment'],
          security,
          summary: '결제 내역 (최신순)',
          querystring: monthQuery,
          response: { 200: z.array(paymentHistoryItem), ...errors },
        },
      },
      async (request) => payments.paymentHistory(requireCustomer(request), request.query.month),
    );

    app.get(
      '/api/point/history',
      {
        schema: {
          tags: ['point'],
          security,
          summary: '포인트 내역 (최신순)',
          querystring: monthQuery,
          response: { 200: z.array(pointHistoryItem), ...errors },
        },
      },
      async (request) => payments.pointHistory(requireCustomer(request), request.query.month),
    );

    app.get(
      '/api/mypage',
      {
        schema: {
          tags: ['customer'],
          security,
          summary: '마이페이지 요약',
          response: { 200: mypageResponse, ...errors },
        },
      },
      async (request) => ok(await payments.mypage(requireCustomer(request))),
    );
  };
}
