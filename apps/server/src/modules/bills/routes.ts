import { BILL_MSG } from '@ohgood/contract/bill-messages';
import {
  billStatusResponse,
  extensionResponse,
  paymentInfoResponse,
  payThisMonthResponse,
  repayRequest,
  repayResponse,
} from '@ohgood/contract/bills';
import { errorBody } from '@ohgood/contract/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCustomer } from '../../http/auth-guard';
import { ok } from '../../lib/envelope';
import type { BillsService } from './service';

export function billsRoutes(bills: BillsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/payment/info',
      { schema: { tags: ['bills'], summary: '납부 정보와 미납 내역', response: { 200: paymentInfoResponse } } },
      async (request) => ok(await bills.info(requireCustomer(request))),
    );

    app.get(
      '/api/payment/statements',
      {
        schema: {
          tags: ['bills'],
          summary: '미납 청구서별 납부 기한·상태와 정지 여부',
          response: { 200: billStatusResponse },
        },
      },
      async (request) => ok(await bills.status(requireCustomer(request))),
    );

    app.post(
      '/api/payment/extension',
      {
        schema: {
          tags: ['bills'],
          summary: '납부 기한 연장 신청',
          response: { 200: extensionResponse, 409: errorBody, 422: errorBody },
        },
      },
      async (request) => ok(await bills.extend(requireCustomer(request)), BILL_MSG.extensionSuccess),
    );

    app.post(
      '/api/payment/immediately',
      {
        schema: {
          tags: ['bills'],
          summary: '선택한 결제 내역 즉시 납부',
          body: repayRequest,
          response: { 200: repayResponse, 400: errorBody, 409: errorBody, 422: errorBody },
        },
      },
      async (request) => {
        const ids = Array.isArray(request.body) ? request.body : request.body.paymentIds;
        return ok(await bills.repay(requireCustomer(request), ids), BILL_MSG.repaySuccess);
      },
    );

    app.get(
      '/api/dash/me/pay-this-month',
      { schema: { tags: ['bills'], summary: '이번 달 BNPL 이용 요약', response: { 200: payThisMonthResponse } } },
      async (request) => ok(await bills.thisMonth(requireCustomer(request))),
    );
  };
}
