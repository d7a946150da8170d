import { randomBytes } from 'node:crypto';
import type { CreatePaymentRequestBody, PaymentRequestView } from '@ohgood/contract/payments';
import type { Db } from '../../db/client';
import { isUniqueViolation, type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { conflict, unprocessable } from '../../lib/errors';
import { refundPurchaseOfRequest } from '../payments/refund';
import { expireDueRequests } from './expiry';
import { effectiveStatus, loadRequest, requestNotFound, requestView } from './payment-requests-reads';
import {
  cancelActive,
  findOrderRequest,
  findRequest,
  insertRequest,
  lockPayerOf,
  markRefunded,
  type RequestRow,
} from './payment-requests-repository';

const REFUND_WINDOW_MS = 90 * 24 * 60 * 60 * 1000;

/** A random token of 144 bits (docs/rules/payments.md#P3 asks for at least 128). */
function newQrToken(): string {
  return randomBytes(18).toString('base64url');
}

/** What a merchant does with payment requests: create, cancel and refund them. */
export function createPaymentRequestActions(db: Db, clock: Clock, ttlSeconds: number, drawPin: () => string) {
  const view = (row: RequestRow, origin: string) => requestView(clock, row, origin);

  /** The request already made for this order: the same one again is answered as it was, another is refused. */
  async function repeatOf(merchantId: number, body: CreatePaymentRequestBody, origin: string) {
    const existing = await findOrderRequest(db, merchantId, body.orderId);
    // Inserted nothing yet found nothing: only a row deleted in between could do that, and none is ever deleted.
    if (!existing) throw new Error('payment request of the order vanished');
    if (existing.requestName !== body.requestName || existing.totalPrice !== body.totalPrice) {
      throw conflict('ORDER_ID_CONFLICT', '같은 주문번호로 다른 결제 요청이 이미 있습니다.');
    }
    return view(existing, origin);
  }

  /**
   * Why a refund wrote nothing, read after its update found no PAID request of the locked payer in the window:
   * one already refunded is answered as it is (a retry, or a second refund at once), anything else refused.
   */
  async function refusal(tx: Tx, merchantId: number, requestId: string, payerLocked: boolean): Promise<RequestRow> {
    const current = await findRequest(tx, merchantId, requestId);
    if (!current) throw requestNotFound();
    if (current.status === 'REFUNDED') return current;
    // Paid after the payer's lookup: refuse rather than take the customer lock out of order.
    if (current.status !== 'PAID' || !current.paidAt || !payerLocked) {
      throw conflict('NOT_REFUNDABLE', '결제 완료된 요청만 환불할 수 있습니다.');
    }
    throw unprocessable('REFUND_WINDOW_PASSED', '결제 후 90일이 지나 환불할 수 없습니다.');
  }

  return {
    /**
     * One statement in the usual case: the insert itself finds an order already requested (its unique key) and
     * a PIN still held. Expired rows are swept only when a drawn PIN collides, since a sweep on every create
     * cost each one a write of its own while almost never freeing the PIN it was about to draw (ADR 0173).
     */
    async create(merchantId: number, body: CreatePaymentRequestBody, origin: string): Promise<PaymentRequestView> {
      const now = clock.now();
      for (let attempt = 0; attempt < 8; attempt++) {
        try {
          const row = await insertRequest(db, {
            merchantId,
            orderId: body.orderId,
            requestName: body.requestName,
            totalPrice: body.totalPrice,
            pinCode: drawPin(),
            qrToken: newQrToken(),
            expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
            createdAt: now,
          });
          return row ? view(row, origin) : repeatOf(merchantId, body, origin);
        } catch (error) {
          // Another request holds this PIN: close the expired ones (freeing their PINs) and draw again.
          if (!isUniqueViolation(error, 'payment_requests_active_pin_key')) throw error;
          await expireDueRequests(db, now);
        }
      }
      throw new Error('could not allocate a unique PIN');
    },

    async cancel(merchantId: number, requestId: string, origin: string): Promise<PaymentRequestView> {
      const now = clock.now();
      // The cancel and its `payment.cancelled` event commit together (the merchant's webhooks hear of it).
      const row = await withTx(db, async (tx) => {
        const cancelled = await cancelActive(tx, merchantId, requestId, now);
        if (cancelled) await recordEvent(tx, { type: 'payment.cancelled', requestId, merchantId }, now);
        return cancelled;
      });
      if (row) return view(row, origin);
      const current = await loadRequest(db, merchantId, requestId);
      if (current.status === 'CANCELLED') return view(current, origin);
      if (effectiveStatus(current, now) === 'EXPIRED') {
        await expireDueRequests(db, now);
        throw conflict('REQUEST_EXPIRED', '이미 만료된 결제 요청입니다. (상태: EXPIRED)');
      }
      throw conflict('NOT_CANCELLABLE', '진행 중인 결제 요청만 취소할 수 있습니다.');
    },

    async refund(
      merchantId: number,
      requestId: string,
      origin: string,
      alsoInTx?: (tx: Tx, refunded: RequestRow) => Promise<void>,
    ): Promise<PaymentRequestView> {
      const now = clock.now();
      const row = await withTx(db, async (tx) => {
        // Lock order (db/tx.ts): the paying customer first, then the request (marked in the update that locks
        // it), then its purchase.
        const payer = await lockPayerOf(tx, merchantId, requestId);
        const refunded =
          payer &&
          (await markRefunded(tx, merchantId, requestId, payer.id, new Date(now.getTime() - REFUND_WINDOW_MS), now));
        if (!refunded) return refusal(tx, merchantId, requestId, payer !== undefined);
        await refundPurchaseOfRequest(tx, requestId, now, payer);
        await alsoInTx?.(tx, refunded);
        return refunded;
      });
      return view(row, origin);
    },
  };
}
