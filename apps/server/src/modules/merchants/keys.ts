import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { merchantApiKeys, merchants } from '../../db/schema';

/** Keys are long random strings, so SHA-256 is enough to store them and keeps lookups O(1). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function newApiKey(): string {
  return `ogm_${randomBytes(24).toString('base64url')}`;
}

export async function addApiKey(db: Db, merchantId: number, key: string): Promise<void> {
  await addApiKeys(db, [{ merchantId, key }]);
}

/** Several keys in one statement; one already stored stays as it is. */
export async function addApiKeys(db: Db, keys: ReadonlyArray<{ merchantId: number; key: string }>): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insert(merchantApiKeys)
    .values(keys.map(({ merchantId, key }) => ({ merchantId, keyHash: hashApiKey(key) })))
    .onConflictDoNothing();
}

/**
 * The merchant owning `key`, or null: the auth guard's resolver for `access: 'merchant'` routes. A disabled
 * merchant's keys open nothing (docs/rules/operations.md#O7), nor does a key revoked in the portal.
 */
export async function merchantIdForKey(db: Db, key: string): Promise<number | null> {
  const [row] = await db
    .select({ merchantId: merchantApiKeys.merchantId })
    .from(merchantApiKeys)
    .innerJoin(merchants, eq(merchants.id, merchantApiKeys.merchantId))
    .where(
      and(
        eq(merchantApiKeys.keyHash, hashApiKey(key)),
        isNull(merchantApiKeys.revokedAt),
        isNull(merchants.disabledAt),
      ),
    );
  return row?.merchantId ?? null;
}
