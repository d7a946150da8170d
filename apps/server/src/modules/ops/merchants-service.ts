import { kstIso } from '@ohgood/contract/kst';
import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { merchantApiKeys, merchants, paymentRequests, purchases } from '../../db/schema';
import { type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { conflict, notFound } from '../../lib/errors';
import { hashApiKey, newApiKey } from '../merchants/keys';
import { writeAudit } from './audit';
import { actorOf, type StaffPrincipal } from './staff-principal';

type MerchantRow = typeof merchants.$inferSelect;

/** Live keys: a key revoked in the merchant portal no longer counts. */
const keyCount = sql<number>`(select count(*)::int from ${merchantApiKeys} where ${merchantApiKeys.merchantId} = ${merchants.id} and ${merchantApiKeys.revokedAt} is null)`;

function rowOf(row: Pick<MerchantRow, 'id' | 'name' | 'category' | 'disabledAt' | 'createdAt'> & { keys: number }) {
  return {
    merchantId: row.id,
    name: row.name,
    category: row.category,
    disabled: row.disabledAt !== null,
    keys: Number(row.keys),
    createdAt: kstIso(row.createdAt),
  };
}

/**
 * Merchants as an admin runs them (docs/rules/operations.md#O7): onboard with a key shown once, disable, rotate
 * the key (the old ones stop at once). Keys are kept only as hashes, like every merchant key.
 */
export function createOpsMerchantsService(db: Db, clock: Clock) {
  async function locked(tx: Tx, merchantId: number): Promise<MerchantRow> {
    const [row] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for('update');
    if (!row) throw notFound('MERCHANT_NOT_FOUND', '가맹점을 찾을 수 없습니다.');
    return row;
  }

  /** Replaces every key of the merchant with one new key, returned once. */
  async function issueKey(tx: Tx, merchantId: number): Promise<string> {
    const apiKey = newApiKey();
    await tx.delete(merchantApiKeys).where(eq(merchantApiKeys.merchantId, merchantId));
    await tx
      .insert(merchantApiKeys)
      .values({ merchantId, keyHash: hashApiKey(apiKey), hint: apiKey.slice(-4), createdAt: clock.now() });
    return apiKey;
  }

  return {
    async list() {
      const rows = await db
        .select({ ...merchantColumns(), keys: keyCount })
        .from(merchants)
        .orderBy(asc(merchants.id));
      return rows.map(rowOf);
    },

    async detail(merchantId: number) {
      const [row] = await db
        .select({ ...merchantColumns(), keys: keyCount })
        .from(merchants)
        .where(eq(merchants.id, merchantId));
      if (!row) throw notFound('MERCHANT_NOT_FOUND', '가맹점을 찾을 수 없습니다.');
      const requests = await db
        .select()
        .from(paymentRequests)
        .where(eq(paymentRequests.merchantId, merchantId))
        .orderBy(desc(paymentRequests.createdAt))
        .limit(30);
      const refunds = await db
        .select()
        .from(purchases)
        .where(and(eq(purchases.merchantId, merchantId), isNotNull(purchases.refundedAt)))
        .orderBy(desc(purchases.refundedAt))
        .limit(30);
      return {
        ...rowOf(row),
        recentRefunds: refunds.map((p) => ({
          paymentId: p.id,
          requestName: p.requestName,
          totalPrice: p.totalPrice,
          refundedAt: kstIso(p.refundedAt as Date),
        })),
        recentRequests: requests.map((r) => ({
          requestId: r.id,
          orderId: r.orderId,
          requestName: r.requestName,
          totalPrice: r.totalPrice,
          status: r.status,
          createdAt: kstIso(r.createdAt),
        })),
      };
    },

    async create(by: StaffPrincipal, input: { name: string; category?: string; reason: string }) {
      return withTx(db, async (tx) => {
        const [row] = await tx
          .insert(merchants)
          .values({ name: input.name, category: input.category ?? null, createdAt: clock.now() })
          .returning();
        const merchantId = row?.id ?? 0;
        const apiKey = await issueKey(tx, merchantId);
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'merchant.create',
          targetType: 'merchant',
          targetId: merchantId,
          reason: input.reason,
          after: { name: input.name, category: input.category ?? null },
        });
        return { merchantId, apiKey };
      });
    },

    async disable(by: StaffPrincipal, merchantId: number, reason: string) {
      await withTx(db, async (tx) => {
        const before = await locked(tx, merchantId);
        if (before.disabledAt) throw conflict('MERCHANT_DISABLED', '이미 사용 중지된 가맹점입니다.');
        await tx.update(merchants).set({ disabledAt: clock.now() }).where(eq(merchants.id, merchantId));
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'merchant.disable',
          targetType: 'merchant',
          targetId: merchantId,
          reason,
          before: { disabled: false },
          after: { disabled: true },
        });
      });
    },

    async rotateKey(by: StaffPrincipal, merchantId: number, reason: string) {
      return withTx(db, async (tx) => {
        const before = await locked(tx, merchantId);
        if (before.disabledAt) throw conflict('MERCHANT_DISABLED', '사용 중지된 가맹점의 키는 교체할 수 없습니다.');
        const apiKey = await issueKey(tx, merchantId);
        // The key itself never reaches the audit trail, only that it changed.
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'merchant.rotate-key',
          targetType: 'merchant',
          targetId: merchantId,
          reason,
        });
        return { merchantId, apiKey };
      });
    },
  };
}

function merchantColumns() {
  return {
    id: merchants.id,
    name: merchants.name,
    category: merchants.category,
    disabledAt: merchants.disabledAt,
    createdAt: merchants.createdAt,
  };
}
