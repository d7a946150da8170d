import { hash } from '@node-rs/argon2';
import { and, eq, isNull } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { merchantUsers } from '../db/schema';
import { ensureDemoMerchants } from './demo-merchants';

/**
 * One demo merchant user of 스타벅스 강남점 for the merchant portal, its password and TOTP secret published in
 * the README (docs/rules/demo-data.md): demo data only; disabled at start-up with demo data off.
 */
export const DEMO_MERCHANT_USER = {
  email: 'shop@merchant.ohgood.kr',
  name: '데모 점장',
  password: 'ohgood-shop-123!',
  totpSecret: 'JBSWY3DPEHPK3PXPMERCHANTDEMO2345',
  merchant: '스타벅스 강남점',
} as const;

export async function ensureDemoMerchantUser(db: Db, at: Date): Promise<void> {
  const [present] = await db
    .select({ id: merchantUsers.id })
    .from(merchantUsers)
    .where(eq(merchantUsers.email, DEMO_MERCHANT_USER.email));
  // Hashed only when missing: an argon2 hash on every restart costs ~30 ms.
  if (present) return;
  const merchantId = (await ensureDemoMerchants(db)).get(DEMO_MERCHANT_USER.merchant);
  if (merchantId === undefined) return;
  const { email, name, totpSecret, password } = DEMO_MERCHANT_USER;
  await db
    .insert(merchantUsers)
    .values({ merchantId, email, name, totpSecret, passwordHash: await hash(password), enrolledAt: at, createdAt: at })
    .onConflictDoNothing();
}

/** With demo data off: the published merchant user opens nothing. Answers whether it was still enabled. */
export async function disableDemoMerchantUser(db: Db, at: Date): Promise<boolean> {
  const rows = await db
    .update(merchantUsers)
    .set({ disabledAt: at })
    .where(and(eq(merchantUsers.email, DEMO_MERCHANT_USER.email), isNull(merchantUsers.disabledAt)))
    .returning({ id: merchantUsers.id });
  return rows.length > 0;
}

/**
 * The published merchant user while it is there and enabled (the start-up warning names it): a query to run or
 * to nest, so the start-up report asks it in the same statement as its other questions.
 */
export function enabledDemoMerchantUser() {
  return new QueryBuilder()
    .select({ id: merchantUsers.id })
    .from(merchantUsers)
    .where(and(eq(merchantUsers.email, DEMO_MERCHANT_USER.email), isNull(merchantUsers.disabledAt)));
}
