import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { STAFF_PASSWORD, signedInOperator } from '../../test/staff-fixture';

/** docs/rules/operations.md#O3 (enrolment links) and #O7 (merchants and their keys). */

let h: Harness;
let admin: Record<string, string>;

beforeAll(async () => {
  h = await createHarness();
  admin = (await signedInOperator(h, 'ADMIN')).auth;
});
afterAll(() => h.close());

const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(h.clock.now().getTime() / 1000) });

describe('enrolment (O3)', () => {
  it('an admin adds an operator; the one-time link shows the QR, sets the password with a code, and is spent', async () => {
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/ops/staff',
      headers: admin,
      payload: { email: 'new.support@ops.example.com', name: '새 상담원', role: 'SUPPORT', reason: '상담팀 충원' },
    });
    expect(created.statusCode).toBe(200);
    const link = created.json().enrolmentUrl as string;
    expect(link).toMatch(/^\/ops\/enrol\/[A-Za-z0-9_-]{32}$/);
    const token = link.split('/').at(-1) as string;
    const info = await h.app.inject({ method: 'GET', url: `/api/ops/enrolment/${token}` });
    expect(info.json()).toMatchObject({ email: 'new.support@ops.example.com', role: 'SUPPORT' });
    expect(info.json().qrSvg).toContain('<svg');
    const secret = info.json().secret as string;
    const enrol = (code: string) =>
      h.app.inject({
        method: 'POST',
        url: `/api/ops/enrolment/${token}`,
        payload: { password: 'a-long-password-1', code },
      });
    expect((await enrol('000000' === (await codeAt(secret)) ? '111111' : '000000')).json().code).toBe('INVALID_TOTP');
    expect((await enrol(await codeAt(secret))).statusCode).toBe(200);
    h.clock.advance(30_000);
    expect((await enrol(await codeAt(secret))).json().code).toBe('ENROLMENT_INVALID');
    // The new operator signs in with both factors.
    const signIn = await h.app.inject({
      method: 'POST',
      url: '/api/ops/auth/sign-in',
      payload: { email: 'new.support@ops.example.com', password: 'a-long-password-1' },
    });
    const totp = await h.app.inject({
      method: 'POST',
      url: '/api/ops/auth/totp',
      headers: bearer(signIn.json().token),
      payload: { code: await codeAt(secret) },
    });
    expect(totp.json()).toMatchObject({ role: 'SUPPORT', idleMinutes: 30 });
  });

  it('an admin disables an operator: the open session ends, sign-in refuses them, and it is audited', async () => {
    const target = await signedInOperator(h, 'SUPPORT');
    const me = (token: Record<string, string>) => h.app.inject({ method: 'GET', url: '/api/ops/me', headers: token });
    expect((await me(target.auth)).statusCode).toBe(200);
    const disable = (id: number) =>
      h.app.inject({
        method: 'POST',
        url: `/api/ops/staff/${id}/disable`,
        headers: admin,
        payload: { reason: '퇴사' },
      });
    const disabled = await disable(target.staffId);
    expect(disabled.json()).toMatchObject({ staffId: target.staffId, disabled: true });
    expect((await me(target.auth)).statusCode).toBe(401);
    const again = await h.app.inject({
      method: 'POST',
      url: '/api/ops/auth/sign-in',
      payload: { email: target.email, password: STAFF_PASSWORD },
    });
    expect(again.statusCode).toBe(401);
    expect((await disable(target.staffId)).json().code).toBe('STAFF_ALREADY_DISABLED');
    const log = await h.app.inject({ method: 'GET', url: `/api/ops/audit?action=staff.disable`, headers: admin });
    expect(log.json().items).toMatchObject([{ targetType: 'staff', targetId: String(target.staffId), reason: '퇴사' }]);
  });

  it('an admin cannot disable themself', async () => {
    const self = await signedInOperator(h, 'ADMIN');
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/ops/staff/${self.staffId}/disable`,
      headers: self.auth,
      payload: { reason: '테스트' },
    });
    expect(res.json().code).toBe('STAFF_SELF_DISABLE');
  });
});

describe('merchants (O7)', () => {
  it('creates a merchant with a key shown once, rotates it (the old one stops), and disables it', async () => {
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/ops/merchants',
      headers: admin,
      payload: { name: '새 가맹점', category: '식비', reason: '신규 계약' },
    });
    const { merchantId, apiKey } = created.json() as { merchantId: number; apiKey: string };
    const request = (key: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/merchant/payment-requests',
        headers: { 'x-merchant-key': key },
        payload: { orderId: `o-${Math.random()}`, requestName: '커피', totalPrice: 1000 },
      });
    expect((await request(apiKey)).statusCode).toBe(200);
    const detail = await h.app.inject({ method: 'GET', url: `/api/ops/merchants/${merchantId}`, headers: admin });
    expect(detail.json()).toMatchObject({ name: '새 가맹점', recentRefunds: [] });
    expect(detail.json().recentRequests).toHaveLength(1);
    const rotated = await h.app.inject({
      method: 'POST',
      url: `/api/ops/merchants/${merchantId}/rotate-key`,
      headers: admin,
      payload: { reason: '키 유출 의심' },
    });
    const newKey = rotated.json().apiKey as string;
    expect(newKey).not.toBe(apiKey);
    expect((await request(apiKey)).statusCode).toBe(401);
    expect((await request(newKey)).statusCode).toBe(200);
    const listed = await h.app.inject({ method: 'GET', url: '/api/ops/merchants', headers: admin });
    expect(JSON.stringify(listed.json())).not.toContain(newKey);
    await h.app.inject({
      method: 'POST',
      url: `/api/ops/merchants/${merchantId}/disable`,
      headers: admin,
      payload: { reason: '계약 해지' },
    });
    expect((await request(newKey)).statusCode).toBe(401);
  });
});
