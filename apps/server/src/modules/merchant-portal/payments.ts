import { kstEndOfDay, kstStartOfDay } from '@ohgood/contract/kst';
import type { PortalPayment } from '@ohgood/contract/merchant-portal';
import type { PaymentRequestStatus } from '@ohgood/contract/payments';
import { and, desc, eq, gt, gte, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { merchantPortalActions, paymentRequests } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { effectiveStatus } from '../merchants/payment-requests-reads';
import type { MerchantService } from '../merchants/service';
import type { MerchantUserPrincipal } from './principal';

type RequestRow = typeof paymentRequests.$inferSelect;

export interface PaymentFilter {
  from?: string;
  to?: string;
  status?: PaymentRequestStatus;
  orderId?: string;
  cursor?: string;
  limit: number;
}

function paymentOf(row: RequestRow, now: Date): PortalPayment {
  return {
    requestId: row.id,
    orderId: row.orderId,
    requestName: row.requestName,
    totalPrice: row.totalPrice,
    status: effectiveStatus(row, now),
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

/** The status as callers see it: an ACTIVE request past its expiry is EXPIRED, swept or not. */
function statusIs(status: PaymentRequestStatus, now: Date): SQL | undefined {
  const active = eq(paymentRequests.status, 'ACTIVE');
  if (status === 'ACTIVE') return and(active, gt(paymentRequests.expiresAt, now));
  if (status === 'EXPIRED')
    return or(eq(paymentRequests.status, 'EXPIRED'), and(active, lte(paymentRequests.expiresAt, now)));
  return eq(paymentRequests.status, status);
}

/** Rows strictly after the cursor's `<created_at in µs since the epoch>_<request id>`, newest first. */
function after(cursor: string): SQL {
  const [micros, id] = cursor.split('_');
  return sql`(${paymentRequests.createdAt}, ${paymentRequests.id}) <
    ('epoch'::timestamptz + ${micros}::bigint * interval '1 microsecond', ${id}::uuid)`;
}

const cursorOf = sql<string>`(extract(epoch from ${paymentRequests.createdAt}) * 1000000)::bigint::text`;

/**
 * A merchant's payments as the portal reads them (ADR 0236): filtered by KST day, status and order id,
 * newest first, keyset-paged on (created_at, id) so a page never repeats or skips a row while new ones
 * arrive. Refunds go through the merchant's one refund path, with the reason recorded in its transaction.
 */
export function createPortalPayments(db: Db, clock: Clock, merchants: MerchantService) {
  return {
    async list(merchantId: number, filter: PaymentFilter) {
      const now = clock.now();
      const rows = await db
        .select({ row: paymentRequests, cursor: cursorOf })
        .from(paymentRequests)
        .where(
          and(
            eq(paymentRequests.merchantId, merchantId),
            filter.from ? gte(paymentRequests.createdAt, kstStartOfDay(filter.from)) : undefined,
            filter.to ? lt(paymentRequests.createdAt, kstEndOfDay(filter.to)) : undefined,
            filter.status ? statusIs(filter.status, now) : undefined,
            filter.orderId ? eq(paymentRequests.orderId, filter.orderId) : undefined,
            filter.cursor ? after(filter.cursor) : undefined,
          ),
        )
        .orderBy(desc(paymentRequests.createdAt), desc(paymentRequests.id))
        .limit(filter.limit + 1);
      const page = rows.slice(0, filter.limit);
      const last = page.at(-1);
      return {
        items: page.map(({ row }) => paymentOf(row, now)),
        nextCursor: rows.length > filter.limit && last ? `${last.cursor}_${last.row.id}` : null,
      };
    },

    async refund(user: MerchantUserPrincipal, requestId: string, reason: string): Promise<PortalPayment> {
      let refunded: RequestRow | undefined;
      await merchants.refund(user.merchantId, requestId, '', async (tx, row) => {
        refunded = row;
        await tx.insert(merchantPortalActions).values({
          merchantId: user.merchantId,
          merchantUserId: user.merchantUserId,
          at: clock.now(),
          action: 'payment.refund',
          targetId: requestId,
          reason,
        });
      });
      if (refunded) return paymentOf(refunded, clock.now());
      // Already refunded before: answered as it is, nothing recorded twice.
      const [row] = await db
        .select()
        .from(paymentRequests)
        .where(and(eq(paymentRequests.id, requestId), eq(paymentRequests.merchantId, user.merchantId)));
      if (!row) throw new Error('refunded request vanished');
      return paymentOf(row, clock.now());
    },
  };
}
export type PortalPayments = ReturnType<typeof createPortalPayments>;
