import { paymentEndpoints as api } from '@ohgood/contract/payments';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import type { PaymentService } from './service';

export function paymentRoutes(payments: PaymentService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.validate, async (request) =>
      payments.validate(requireCustomer(request), request.body, request.ip),
    );

    registerEndpoint(app, api.final, async (request) => {
      const { point, requestId } = request.query;
      const key = request.headers['idempotency-key'];
      const result = await payments.final(requireCustomer(request), requestId, point, key);
      return { success: true as const, result };
    });

    registerEndpoint(app, api.paymentHistory, async (request) =>
      payments.paymentHistory(requireCustomer(request), request.query.month),
    );

    registerEndpoint(app, api.pointHistory, async (request) =>
      payments.pointHistory(requireCustomer(request), request.query.month),
    );

    registerEndpoint(app, api.mypage, async (request) => payments.mypage(requireCustomer(request)));
  };
}
