import type { BillStatus, PaymentInfo, PayThisMonth, RepayResult } from '@ohgood/contract/bills';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createBillActions } from './bills-actions';
import { createBillReads } from './bills-reads';

export interface BillsService {
  info(customerId: number): Promise<PaymentInfo>;
  status(customerId: number): Promise<BillStatus>;
  extend(customerId: number): Promise<{ month: string; dueDate: string }>;
  repay(customerId: number, paymentIds: number[]): Promise<RepayResult>;
  thisMonth(customerId: number): Promise<PayThisMonth>;
}

/**
 * A customer's bills: what they read (`bills-reads.ts`) and what they do (`bills-actions.ts`, where the one
 * repayment autopay also uses lives), with the SQL of both in `bills-repository.ts`.
 */
export function createBillsService(db: Db, clock: Clock): BillsService {
  return { ...createBillReads(db, clock), ...createBillActions(db, clock) };
}
