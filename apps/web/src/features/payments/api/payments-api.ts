import { paymentEndpoints as api } from '@ohgood/contract/payments';
import { callEndpoint } from '../../../shared/api-client';

export type CodeType = 'pincode' | 'qrcode';

export const validateCode = (codeType: CodeType, value: string) =>
  callEndpoint(api.validate, { body: { codeType, value } });

export const finalPayment = (requestId: string, point: number, idempotencyKey: string) =>
  callEndpoint(api.final, { query: { point, requestId }, headers: { 'idempotency-key': idempotencyKey } });

export const fetchPaymentHistory = (month?: string) => callEndpoint(api.paymentHistory, { query: { month } });

export const fetchPointHistory = (month?: string) => callEndpoint(api.pointHistory, { query: { month } });
