import type { Db } from '../db/client';
import { withTx } from '../db/tx';
import { writeDirectPurchases } from '../modules/payments/direct-purchases';
import { ensureDemoMerchants } from '../seed/demo-merchants';
import { grantPoints } from './merchant-fixture';

export interface PurchaseInput {
  customerId: number;
  /** What the customer pays for the item. */
  totalPrice: number;
  /** Points used at checkout; the bill line owes totalPrice − pointUsed (granted first if not held). */
  pointUsed?: number;
  /** Points earned (0 by default, so a test's balances only move where it says). */
  pointEarned?: number;
  requestName?: string;
  /** The shop (the demo GS25 by default). */
  merchantId?: number;
  /** When it was bought (the controlled clock's now by default): its KST month picks the statement. */
  at: Date;
}

/**
 * Test data on the real database, as a completed checkout leaves it, written by the payments' one writer
 * (`writeDirectPurchases`): a PAID payment request, the purchase (bill line) in the statement of its KST month,
 * its point movements and events. Not a mock: every constraint and foreign key applies.
 */
export async function insertPurchase(db: Db, input: PurchaseInput): Promise<number> {
  const merchantIds = await ensureDemoMerchants(db);
  const pointUsed = input.pointUsed ?? 0;
  if (pointUsed > 0) await grantPoints(db, input.customerId, pointUsed, input.at);
  const [id] = await withTx(db, (tx) =>
    writeDirectPurchases(tx, input.customerId, [
      {
        merchantId: input.merchantId ?? merchantIds.get('GS25') ?? 0,
        requestName: input.requestName ?? '테스트 상품',
        totalPrice: input.totalPrice,
        pointUsed,
        pointEarned: input.pointEarned ?? 0,
        at: input.at,
      },
    ]),
  );
  if (id === undefined) throw new Error('purchase insert failed');
  return id;
}
