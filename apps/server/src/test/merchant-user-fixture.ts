import { hash } from '@node-rs/argon2';
import { merchantUsers } from '../db/schema';
import { newTotpSecret } from '../modules/two-factor/totp';
import type { Harness } from './harness';
import { bearer } from './harness';
import { totpAt } from './staff-fixture';

export const MERCHANT_USER_PASSWORD = 'merchant-password-1';

let sequence = 0;

/** An enrolled merchant user of `merchantId` (password and TOTP secret known), not signed in. */
export async function createMerchantUser(h: Harness, merchantId: number) {
  sequence += 1;
  const email = `shop${sequence}-${Date.now()}@merchant.example.com`;
  const totpSecret = newTotpSecret();
  const [row] = await h.database.db
    .insert(merchantUsers)
    .values({
      merchantId,
      email,
      name: `가맹점 담당자 ${sequence}`,
      passwordHash: await hash(MERCHANT_USER_PASSWORD),
      totpSecret,
      enrolledAt: h.clock.now(),
    })
    .returning({ id: merchantUsers.id });
  return { merchantUserId: row?.id ?? 0, email, totpSecret };
}

/** Step one only: a portal token that has not passed the second factor. */
export async function portalPasswordOnly(h: Harness, email: string, password = MERCHANT_USER_PASSWORD) {
  return h.app.inject({ method: 'POST', url: '/api/merchant/portal/auth/sign-in', payload: { email, password } });
}

/** A merchant user signed in with both factors; `auth` is the portal's Authorization header. */
export async function signedInMerchantUser(h: Harness, merchantId: number) {
  const user = await createMerchantUser(h, merchantId);
  const first = await portalPasswordOnly(h, user.email);
  if (first.statusCode !== 200) throw new Error(`portal sign-in failed: ${first.body}`);
  const token = first.json().token as string;
  const second = await h.app.inject({
    method: 'POST',
    url: '/api/merchant/portal/auth/totp',
    headers: bearer(token),
    payload: { code: await totpAt(h, user.totpSecret) },
  });
  if (second.statusCode !== 200) throw new Error(`portal TOTP failed: ${second.body}`);
  return { ...user, token, auth: bearer(token) };
}
