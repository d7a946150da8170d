import type {
  FinalResult,
  Mypage,
  PaymentHistoryItem,
  PointHistoryItem,
  ValidateBody,
  ValidateResult,
} from '@ohgood/contract/payments';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createPaymentActions } from './payments-actions';
import { createPaymentReads } from './payments-reads';

export interface PaymentService {
  validate(customerId: number, body: ValidateBody, ip: string): Promise<ValidateResult>;
  final(customerId: number, requestId: string, point: number, idempotencyKey?: string): Promise<FinalResult>;
  paymentHistory(customerId: number, month?: string): Promise<PaymentHistoryItem[]>;
  pointHistory(customerId: number, month?: string): Promise<PointHistoryItem[]>;
  mypage(customerId: number): Promise<Mypage>;
}

/**
 * A customer's payments: what they do (`payments-actions.ts`: validate and the final) and what they read
 * (`payments-reads.ts`), with the SQL of both in `payments-repository.ts` beside the final's and validate's
 * one reads and the payment's one writer.
 */
export function createPaymentService(db: Db, clock: Clock): PaymentService {
  return { ...createPaymentActions(db, clock), ...createPaymentReads(db) };
}
