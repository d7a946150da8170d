import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { merchantApiKeys } from '../../db/schema';
import { AppError } from '../../lib/errors';

/** Keys are long random strings, so SHA-256 is enough to store them and keeps lookups O(1). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function newApiKey(): string {
  return `ogm_${randomBytes(24).toString('base64url')}`;
}

export async function addApiKey(db: Db, merchantId: number, key: string): Promise<void> {
  await db
    .insert(merchantApiKeys)
    .values({ merchantId, keyHash: hashApiKey(key) })
    .onConflictDoNothing();
}

/** The merchant behind the `X-Merchant-Key` header, or a 401 in the error shape. */
export async function authenticateMerchant(db: Db, request: FastifyRequest): Promise<number> {
  const header = request.headers['x-merchant-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw new AppError(401, 'MERCHANT_KEY_REQUIRED', '가맹점 API 키가 필요합니다.');
  const [row] = await db
    .select({ merchantId: merchantApiKeys.merchantId })
    .from(merchantApiKeys)
    .where(eq(merchantApiKeys.keyHash, hashApiKey(key)));
  if (!row) throw new AppError(401, 'INVALID_MERCHANT_KEY', '가맹점 API 키가 올바르지 않습니다.');
  return row.merchantId;
}
