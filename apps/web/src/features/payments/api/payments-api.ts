import type { FinalResult, PaymentHistoryItem, PointHistoryItem, ValidateResult } from '@ohgood/contract/payments';
import { api } from '../../../shared/api-client';

export type CodeType = 'pincode' | 'qrcode';

export const validateCode = (codeType: CodeType, value: string) =>
  api.post<ValidateResult>('/api/payment/validate', { codeType, value });

export const finalPayment = (requestId: string, point: number, idempotencyKey: string) =>
  api.post<{ success: true; result: FinalResult }>('/api/payment/final', undefined, {
    query: { point, requestId },
    headers: { 'idempotency-key': idempotencyKey },
  });

export const fetchPaymentHistory = (month?: string) =>
  api.get<PaymentHistoryItem[]>('/api/payment/history', { query: { month } });

export const fetchPointHistory = (month?: string) =>
  api.get<PointHistoryItem[]>('/api/point/history', { query: { month } });
