import type { PaymentRequestStatus, PaymentRequestView } from '@ohgood/contract/payments';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { qrSvg } from '../../lib/qr-svg';
import { findRequest, type RequestRow } from './payment-requests-repository';

/** The status a caller should see: an ACTIVE row past its expiry is EXPIRED, whether or not swept yet. */
export function effectiveStatus(row: Pick<RequestRow, 'status' | 'expiresAt'>, now: Date): PaymentRequestStatus {
  if (row.status === 'ACTIVE' && row.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return row.status;
}

export function deepLink(origin: string, qrToken: string): string {
  return `${origin.replace(/\/$/, '')}/qrpin?code=${encodeURIComponent(qrToken)}`;
}

/** A request as its merchant sees it, with its QR image, in its status at the clock's now. */
export async function requestView(clock: Clock, row: RequestRow, origin: string): Promise<PaymentRequestView> {
  const link = deepLink(origin, row.qrToken);
  return {
    requestId: row.id,
    orderId: row.orderId,
    requestName: row.requestName,
    totalPrice: row.totalPrice,
    pinCode: row.pinCode,
    qrCode: row.qrToken,
    qrImage: await qrSvg(link),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    status: effectiveStatus(row, clock.now()),
    paidAt: row.paidAt?.toISOString() ?? null,
  };
}

export const requestNotFound = () => notFound('PAYMENT_REQUEST_NOT_FOUND', '결제 요청을 찾을 수 없습니다.');

/** The merchant's own request; another merchant's looks exactly like a missing one. */
export async function loadRequest(db: Db, merchantId: number, requestId: string): Promise<RequestRow> {
  const row = await findRequest(db, merchantId, requestId);
  if (!row) throw requestNotFound();
  return row;
}

/** What a merchant reads of their payment requests: one request, or its status for the live stream. */
export function createPaymentRequestReads(db: Db, clock: Clock) {
  return {
    async get(merchantId: number, requestId: string, origin: string): Promise<PaymentRequestView> {
      return requestView(clock, await loadRequest(db, merchantId, requestId), origin);
    },

    async status(merchantId: number, requestId: string): Promise<{ status: PaymentRequestStatus; expiresAt: Date }> {
      const row = await loadRequest(db, merchantId, requestId);
      return { status: effectiveStatus(row, clock.now()), expiresAt: row.expiresAt };
    },
  };
}
