import type { PortalKey } from '@ohgood/contract/merchant-portal';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { merchantApiKeys, merchantPortalActions } from '../../db/schema';
import { type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { hashApiKey, newApiKey } from '../merchants/keys';
import type { MerchantUserPrincipal } from './principal';

type KeyRow = typeof merchantApiKeys.$inferSelect;

function keyOf(row: KeyRow): PortalKey {
  return {
    keyId: row.id,
    hint: row.hint,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

const keyNotFound = () => notFound('MERCHANT_KEY_NOT_FOUND', 'API 키를 찾을 수 없습니다.');

/**
 * A merchant's API keys as its users manage them in the portal (ADR 0235): a new key is answered once and
 * kept as its hash and last four characters; rotating issues a new key and revokes the old one in one
 * transaction; a revoked key opens nothing at once (the guard's lookup skips it). Each change is recorded with
 * who made it. Only a portal session reaches here, never a key.
 */
export function createPortalKeys(db: Db, clock: Clock) {
  async function record(tx: Tx, user: MerchantUserPrincipal, action: string, keyId: number) {
    await tx.insert(merchantPortalActions).values({
      merchantId: user.merchantId,
      merchantUserId: user.merchantUserId,
      at: clock.now(),
      action,
      targetId: String(keyId),
    });
  }

  async function issue(tx: Tx, user: MerchantUserPrincipal) {
    const apiKey = newApiKey();
    const [row] = await tx
      .insert(merchantApiKeys)
      .values({
        merchantId: user.merchantId,
        keyHash: hashApiKey(apiKey),
        hint: apiKey.slice(-4),
        createdAt: clock.now(),
      })
      .returning({ id: merchantApiKeys.id });
    return { keyId: row?.id ?? 0, apiKey };
  }

  /** Revokes a live key of the user's merchant; false when there is none by that id (or it was revoked). */
  async function revokeIn(tx: Tx, user: MerchantUserPrincipal, keyId: number): Promise<boolean> {
    const revoked = await tx
      .update(merchantApiKeys)
      .set({ revokedAt: clock.now() })
      .where(
        and(
          eq(merchantApiKeys.id, keyId),
          eq(merchantApiKeys.merchantId, user.merchantId),
          isNull(merchantApiKeys.revokedAt),
        ),
      )
      .returning({ id: merchantApiKeys.id });
    return revoked.length > 0;
  }

  return {
    async list(merchantId: number) {
      const rows = await db
        .select()
        .from(merchantApiKeys)
        .where(eq(merchantApiKeys.merchantId, merchantId))
        .orderBy(desc(merchantApiKeys.id));
      return rows.map(keyOf);
    },

    async create(user: MerchantUserPrincipal) {
      return withTx(db, async (tx) => {
        const created = await issue(tx, user);
        await record(tx, user, 'key.create', created.keyId);
        return created;
      });
    },

    /** A new key in place of a live one: the old one stops in the same commit. */
    async rotate(user: MerchantUserPrincipal, keyId: number) {
      return withTx(db, async (tx) => {
        if (!(await revokeIn(tx, user, keyId))) throw keyNotFound();
        const created = await issue(tx, user);
        await record(tx, user, 'key.rotate', keyId);
        return created;
      });
    },

    async revoke(user: MerchantUserPrincipal, keyId: number): Promise<void> {
      await withTx(db, async (tx) => {
        if (!(await revokeIn(tx, user, keyId))) throw keyNotFound();
        await record(tx, user, 'key.revoke', keyId);
      });
    },
  };
}
