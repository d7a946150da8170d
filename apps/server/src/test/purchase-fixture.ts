import { randomBytes } from 'node:crypto';
import { kstMonth } from '@ohgood/contract/kst';
import type { Db } from '../db/client';
import { paymentRequests, purchases } from '../db/schema';
import { withTx } from '../db/tx';
import { ensureStatement } from '../modules/bills/statements';
import { newPinCode } from '../modules/merchants/pin-code';
import { ensureDemoMerchants } from '../seed/demo-merchants';

export interface PurchaseInput {
  customerId: number;
  /** What the customer pays for the item. */
  totalPrice: number;
  /** Points used at checkout; the bill line owes totalPrice − pointUsed. */
  pointUsed?: number;
  pointEarned?: number;
  requestName?: string;
  /** The shop (the demo GS25 by default). */
  merchantId?: number;
  /** When it was bought (the controlled clock's now by default): its KST month picks the statement. */
  at: Date;
}

/**
 * Test data on the real database, as a completed checkout leaves it: a merchant, a PAID payment request, the
 * purchase (bill line) in the statement of its KST month, and that statement row. Not a mock: every
 * constraint and foreign key applies.
 */
export async function insertPurchase(db: Db, input: PurchaseInput): Promise<number> {
  return withTx(db, async (tx) => {
    const merchantIds = await ensureDemoMerchants(tx);
    const merchantId = input.merchantId ?? merchantIds.get('GS25') ?? 0;
    const pointUsed = input.pointUsed ?? 0;
    const requestName = input.requestName ?? '테스트 상품';
    const [request] = await tx
      .insert(paymentRequests)
      .values({
        merchantId,
        orderId: `fixture-${randomBytes(8).toString('hex')}`,
        requestName,
        totalPrice: input.totalPrice,
        pinCode: newPinCode(),
        qrToken: randomBytes(16).toString('hex'),
        status: 'PAID',
        reservedBy: input.customerId,
        expiresAt: new Date(input.at.getTime() + 120_000),
        paidAt: input.at,
        createdAt: input.at,
      })
      .returning({ id: paymentRequests.id });
    if (!request) throw new Error('payment request insert failed');
    const month = kstMonth(input.at);
    const [purchase] = await tx
      .insert(purchases)
      .values({
        customerId: input.customerId,
        merchantId,
        requestId: request.id,
        requestName,
        totalPrice: input.totalPrice,
        pointUsed,
        price: input.totalPrice - pointUsed,
        pointEarned: input.pointEarned ?? 0,
        statementMonth: month,
        status: 'UNPAID',
        createdAt: input.at,
      })
      .returning({ id: purchases.id });
    if (!purchase) throw new Error('purchase insert failed');
    await ensureStatement(tx, input.customerId, month);
    return purchase.id;
  });
}
