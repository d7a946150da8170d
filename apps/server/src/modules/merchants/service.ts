import { randomBytes } from 'node:crypto';
import type { CreatePaymentRequestBody, PaymentRequestStatus, PaymentRequestView } from '@ohgood/contract/payments';
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { isActiveRequest, paymentRequests } from '../../db/schema';
import { isUniqueViolation, type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import { refundPurchaseOfRequest } from '../payments/refund';
import { newPinCode } from './pin-code';

/** The QR encoder, loaded on the first payment request rather than at start-up. */
const qrCode = async () => (await import('qrcode')).default;

type RequestRow = typeof paymentRequests.$inferSelect;

const REFUND_WINDOW_MS = 90 * 24 * 60 * 60 * 1000;

/** A random token of 144 bits (docs/rules/payments.md#P3 asks for at least 128). */
function newQrToken(): string {
  return randomBytes(18).toString('base64url');
}

/** The status a caller should see: an ACTIVE row past its expiry is EXPIRED, whether or not swept yet. */
export function effectiveStatus(row: Pick<RequestRow, 'status' | 'expiresAt'>, now: Date): PaymentRequestStatus {
  if (row.status === 'ACTIVE' && row.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return row.status;
}

export function deepLink(origin: string, qrToken: string): string {
  return `${origin.replace(/\/$/, '')}/qrpin?code=${encodeURIComponent(qrToken)}`;
}

export interface MerchantService {
  create(merchantId: number, body: CreatePaymentRequestBody, origin: string): Promise<PaymentRequestView>;
  get(merchantId: number, requestId: string, origin: string): Promise<PaymentRequestView>;
  cancel(merchantId: number, requestId: string, origin: string): Promise<PaymentRequestView>;
  /**
   * `alsoInTx` runs inside the refund's transaction once it is done (the console's audit row), so the two
   * commit together.
   */
  refund(
    merchantId: number,
    requestId: string,
    origin: string,
    alsoInTx?: (tx: Tx, refunded: RequestRow) => Promise<void>,
  ): Promise<PaymentRequestView>;
  /** Current status and expiry only, for the live stream. */
  status(merchantId: number, requestId: string): Promise<{ status: PaymentRequestStatus; expiresAt: Date }>;
}

/** `drawPin` is the PIN source; tests pass a scripted one to make draws collide. */
export function createMerchantService(
  db: Db,
  clock: Clock,
  ttlSeconds: number,
  drawPin: () => string = newPinCode,
): MerchantService {
  async function view(row: RequestRow, origin: string): Promise<PaymentRequestView> {
    const link = deepLink(origin, row.qrToken);
    return {
      requestId: row.id,
      orderId: row.orderId,
      requestName: row.requestName,
      totalPrice: row.totalPrice,
      pinCode: row.pinCode,
      qrCode: row.qrToken,
      qrImage: await (await qrCode()).toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
      expiresAt: row.expiresAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      status: effectiveStatus(row, clock.now()),
      paidAt: row.paidAt?.toISOString() ?? null,
    };
  }

  async function load(merchantId: number, requestId: string): Promise<RequestRow> {
    const [row] = await db
      .select()
      .from(paymentRequests)
      .where(and(eq(paymentRequests.id, requestId), eq(paymentRequests.merchantId, merchantId)));
    if (!row) throw notFound('PAYMENT_REQUEST_NOT_FOUND', '결제 요청을 찾을 수 없습니다.');
    return row;
  }

  /** Marks expired ACTIVE rows EXPIRED so their PINs can be reused (the PIN index covers ACTIVE rows). */
  async function sweepExpired(now: Date): Promise<void> {
    // Rows another transaction holds (a final in progress) are skipped, never waited on: no lock cycles.
    const expired = db
      .select({ id: paymentRequests.id })
      .from(paymentRequests)
      .where(and(isActiveRequest, lte(paymentRequests.expiresAt, now)))
      .for('update', { skipLocked: true });
    await db
      .update(paymentRequests)
      .set({ status: 'EXPIRED', closedAt: now })
      .where(and(inArray(paymentRequests.id, expired), isActiveRequest));
  }

  /** The request already made for this order: the same one again is answered as it was, another is refused. */
  async function repeatOf(merchantId: number, body: CreatePaymentRequestBody, origin: string) {
    const [existing] = await db
      .select()
      .from(paymentRequests)
      .where(and(eq(paymentRequests.merchantId, merchantId), eq(paymentRequests.orderId, body.orderId)));
    // Inserted nothing yet found nothing: only a row deleted in between could do that, and none is ever deleted.
    if (!existing) throw new Error('payment request of the order vanished');
    if (existing.requestName !== body.requestName || existing.totalPrice !== body.totalPrice) {
      throw conflict('ORDER_ID_CONFLICT', '같은 주문번호로 다른 결제 요청이 이미 있습니다.');
    }
    return view(existing, origin);
  }

  /**
   * One statement in the usual case: the insert itself finds an order already requested (its unique key) and
   * a PIN still held. Expired rows are swept only when a drawn PIN collides, since a sweep on every create
   * cost each one a write of its own while almost never freeing the PIN it was about to draw (ADR 0173).
   */
  async function create(
    merchantId: number,
    body: CreatePaymentRequestBody,
    origin: string,
  ): Promise<PaymentRequestView> {
    const now = clock.now();
    for (let attempt = 0; attempt < 8; attempt++) {
      try {
        const [row] = await db
          .insert(paymentRequests)
          .values({
            merchantId,
            orderId: body.orderId,
            requestName: body.requestName,
            totalPrice: body.totalPrice,
            pinCode: drawPin(),
            qrToken: newQrToken(),
            expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
            createdAt: now,
          })
          .onConflictDoNothing({ target: [paymentRequests.merchantId, paymentRequests.orderId] })
          .returning();
        return row ? view(row, origin) : repeatOf(merchantId, body, origin);
      } catch (error) {
        // Another request holds this PIN: free the expired ones' PINs and draw again.
        if (!isUniqueViolation(error, 'payment_requests_active_pin_key')) throw error;
        await sweepExpired(now);
      }
    }
    throw new Error('could not allocate a unique PIN');
  }

  return {
    create,

    async get(merchantId, requestId, origin) {
      return view(await load(merchantId, requestId), origin);
    },

    async status(merchantId, requestId) {
      const row = await load(merchantId, requestId);
      return { status: effectiveStatus(row, clock.now()), expiresAt: row.expiresAt };
    },

    async cancel(merchantId, requestId, origin) {
      const now = clock.now();
      const [row] = await db
        .update(paymentRequests)
        .set({ status: 'CANCELLED', closedAt: now })
        .where(
          and(
            eq(paymentRequests.id, requestId),
            eq(paymentRequests.merchantId, merchantId),
            isActiveRequest,
            // Expiry is the clock's decision: a request past its expiry is EXPIRED, never CANCELLED.
            gt(paymentRequests.expiresAt, now),
          ),
        )
        .returning();
      if (row) return view(row, origin);
      const current = await load(merchantId, requestId);
      if (current.status === 'CANCELLED') return view(current, origin);
      if (effectiveStatus(current, now) === 'EXPIRED') {
        await sweepExpired(now);
        throw conflict('REQUEST_EXPIRED', '이미 만료된 결제 요청입니다. (상태: EXPIRED)');
      }
      throw conflict('NOT_CANCELLABLE', '진행 중인 결제 요청만 취소할 수 있습니다.');
    },

    async refund(merchantId, requestId, origin, alsoInTx) {
      const now = clock.now();
      const row = await withTx(db, async (tx) => {
        // Lock order (db/tx.ts): the paying customer first, then the request, then its purchase. The payer of
        // a PAID request never changes, so it can be read before the locks.
        const [payer] = await tx
          .select({ customerId: paymentRequests.reservedBy, status: paymentRequests.status })
          .from(paymentRequests)
          .where(and(eq(paymentRequests.id, requestId), eq(paymentRequests.merchantId, merchantId)));
        if (payer?.status === 'PAID' && payer.customerId !== null) await lockCustomer(tx, payer.customerId);
        const [locked] = await tx
          .select()
          .from(paymentRequests)
          .where(and(eq(paymentRequests.id, requestId), eq(paymentRequests.merchantId, merchantId)))
          .for('update');
        if (!locked) throw notFound('PAYMENT_REQUEST_NOT_FOUND', '결제 요청을 찾을 수 없습니다.');
        if (locked.status === 'REFUNDED') return locked;
        if (locked.status !== 'PAID' || !locked.paidAt) {
          throw conflict('NOT_REFUNDABLE', '결제 완료된 요청만 환불할 수 있습니다.');
        }
        // Paid between the read and the lock: refuse rather than take the customer lock out of order.
        if (payer?.status !== 'PAID') throw conflict('NOT_REFUNDABLE', '결제 완료된 요청만 환불할 수 있습니다.');
        if (now.getTime() - locked.paidAt.getTime() > REFUND_WINDOW_MS) {
          throw unprocessable('REFUND_WINDOW_PASSED', '결제 후 90일이 지나 환불할 수 없습니다.');
        }
        await refundPurchaseOfRequest(tx, requestId, now);
        const [updated] = await tx
          .update(paymentRequests)
          .set({ status: 'REFUNDED', closedAt: now })
          .where(eq(paymentRequests.id, requestId))
          .returning();
        await alsoInTx?.(tx, updated ?? locked);
        return updated ?? locked;
      });
      return view(row, origin);
    },
  };
}
