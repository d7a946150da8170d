import { hash } from '@node-rs/argon2';
import type { StaffRole } from '@ohgood/contract/endpoint';
import { generate } from 'otplib';
import { staff } from '../db/schema';
import { newTotpSecret } from '../modules/two-factor/totp';
import type { Harness } from './harness';

export const STAFF_PASSWORD = 'operator-password-1';

let sequence = 0;

/** The code an authenticator app would show at the harness's clock. */
export function totpAt(h: Harness, secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(h.clock.now().getTime() / 1000) + offsetSeconds });
}

/** An enrolled operator of `role` (password and TOTP secret known), not signed in. */
export async function createOperator(h: Harness, role: StaffRole) {
  sequence += 1;
  const email = `${role.toLowerCase()}${sequence}-${Date.now()}@ops.ohgood.kr`;
  const totpSecret = newTotpSecret();
  const [row] = await h.database.db
    .insert(staff)
    .values({
      email,
      name: `${role} 운영자 ${sequence}`,
      role,
      passwordHash: await hash(STAFF_PASSWORD),
      totpSecret,
      enrolledAt: h.clock.now(),
    })
    .returning({ id: staff.id });
  return { staffId: row?.id ?? 0, email, totpSecret };
}

/** Step one only: a token that has not passed the second factor. */
export async function passwordOnly(h: Harness, email: string): Promise<string> {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/ops/auth/sign-in',
    payload: { email, password: STAFF_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`staff sign-in failed: ${res.body}`);
  return res.json().token as string;
}

/** A fully signed-in operator of `role`: password, then the TOTP code of the moment. */
export async function signedInOperator(h: Harness, role: StaffRole) {
  const operator = await createOperator(h, role);
  const token = await passwordOnly(h, operator.email);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/ops/auth/totp',
    headers: { authorization: `Bearer ${token}` },
    payload: { code: await totpAt(h, operator.totpSecret) },
  });
  if (res.statusCode !== 200) throw new Error(`staff TOTP failed: ${res.body}`);
  return { ...operator, token, auth: { authorization: `Bearer ${token}` } };
}

/** Refunds a purchase from the console, as risk does for a shop that asked; fails the test unless it is done. */
export async function refundFromConsole(h: Harness, purchaseId: number): Promise<void> {
  const risk = await signedInOperator(h, 'RISK');
  const refunded = await h.app.inject({
    method: 'POST',
    url: `/api/ops/payments/${purchaseId}/refund`,
    headers: risk.auth,
    payload: { reason: '가맹점 요청 환불' },
  });
  if (refunded.statusCode !== 200) throw new Error(`console refund failed: ${refunded.statusCode} ${refunded.body}`);
}
