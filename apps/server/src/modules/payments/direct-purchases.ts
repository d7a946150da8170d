import { randomBytes } from 'node:crypto';
import { gradeOf } from '@ohgood/contract/grades';
import { lockCustomer } from '../../db/locks';
import { paymentRequests } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { newPinCode } from '../merchants/pin-code';
import { earnedPoints, newPaymentIds, writePayments } from './payment-write';

/** A purchase written without a checkout: what a completed payment request of this shop leaves. */
export interface DirectPurchase {
  merchantId: number;
  requestName: string;
  totalPrice: number;
  /** Points used at checkout (the customer must hold them); the bill line owes totalPrice − pointUsed. */
  pointUsed?: number;
  /** Points earned; by default what a real final earns at the customer's grade (`earnedPoints`). */
  pointEarned?: number;
  /** When it was bought: its KST month picks the statement. */
  at: Date;
}

/**
 * Purchases of the demo seed and the test fixtures, in the caller's transaction: each gets a payment request
 * reserved by the customer, then all are written by the payments' one writer (`writePayments`), so ledger,
 * balance, statements and events come out exactly as a real final's. Returns the purchase ids, in order.
 */
export async function writeDirectPurchases(
  tx: Tx,
  customerId: number,
  items: readonly DirectPurchase[],
): Promise<number[]> {
  if (items.length === 0) return [];
  const customer = await lockCustomer(tx, customerId);
  const rate = gradeOf(customer.gradePoint).pointPercent;
  const requests = await tx
    .insert(paymentRequests)
    .values(
      items.map((item) => ({
        merchantId: item.merchantId,
        orderId: `direct-${randomBytes(8).toString('hex')}`,
        requestName: item.requestName,
        totalPrice: item.totalPrice,
        pinCode: newPinCode(),
        qrToken: randomBytes(16).toString('hex'),
        status: 'ACTIVE' as const,
        reservedBy: customerId,
        expiresAt: new Date(item.at.getTime() + 120_000),
        createdAt: item.at,
      })),
    )
    .returning({ id: paymentRequests.id });
  const ids = await newPaymentIds(tx, items.length);
  const payments = items.map((item, i) => {
    const request = requests[i];
    const paymentId = ids[i];
    if (!request || paymentId === undefined) throw new Error('direct purchase rows missing');
    const pointUsed = item.pointUsed ?? 0;
    return {
      paymentId,
      customerId,
      request: {
        id: request.id,
        merchantId: item.merchantId,
        requestName: item.requestName,
        totalPrice: item.totalPrice,
      },
      pointUsed,
      pointEarned: item.pointEarned ?? earnedPoints(item.totalPrice - pointUsed, rate),
      at: item.at,
      answer: null,
      callerKey: null,
    };
  });
  await writePayments(tx, payments, new Map([[customerId, customer.pointBalance]]));
  return ids;
}
