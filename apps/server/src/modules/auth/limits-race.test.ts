import { MSG } from '@ohgood/contract/messages';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createRequest } from '../../test/payment-helpers';
import { AUTH_LIMITS } from './service';

/**
 * Limits that cannot be raced (docs/security.md): every attempt is counted, and the count read,
 * in one statement before the secret is checked, so attempts sent all at once get no more checks than one at a
 * time would. A check is any answer that is not a 429: only a checked password is told it was wrong (401).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const login = (emailId: string, pwd: string, remoteAddress: string) =>
  h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd }, remoteAddress });
const checked = (statuses: number[]) => statuses.filter((s) => s !== 429).length;

describe('customer login under 150 parallel wrong passwords', () => {
  it('from one address: 5 checked (per account and address), the rest 429 unchecked', async () => {
    const { emailId } = await h.signUp();
    const answers = await Promise.all(Array.from({ length: 150 }, () => login(emailId, 'wrongpass1', '203.0.113.150')));
    const statuses = answers.map((r) => r.statusCode);
    expect(checked(statuses)).toBe(AUTH_LIMITS.loginFailuresPerAccountIp.limit);
    expect(statuses.filter((s) => s === 401)).toHaveLength(AUTH_LIMITS.loginFailuresPerAccountIp.limit);
    for (const r of answers.filter((a) => a.statusCode === 429)) {
      expect(r.json()).toMatchObject({ success: false, code: 'TOO_MANY_LOGIN_ATTEMPTS', message: MSG.tooManyAttempts });
    }
    // The owner, elsewhere, still signs in: the account window (20) was counted 5 times only.
    expect((await login(emailId, 'password1!', '203.0.113.151')).statusCode).toBe(200);
  }, 120_000);

  it('from 150 addresses: 20 checked (the account from every address), the owner locked out as one at a time would be', async () => {
    const { emailId } = await h.signUp();
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => login(emailId, 'wrongpass1', `198.19.${i >> 8}.${(i & 255) + 1}`)),
    );
    expect(checked(answers.map((r) => r.statusCode))).toBe(AUTH_LIMITS.loginFailuresPerAccount.limit);
    expect((await login(emailId, 'password1!', '198.19.9.9')).statusCode).toBe(429);
  }, 120_000);

  it('a correct password given back its place: successes still do not count', async () => {
    const { emailId } = await h.signUp();
    const ip = '203.0.113.152';
    // Four wrong, then more correct logins than any limit, then one more wrong one is still checked.
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerAccountIp.limit - 1; i++) {
      expect((await login(emailId, 'wrongpass1', ip)).statusCode).toBe(401);
    }
    const rights = await Promise.all(Array.from({ length: 8 }, () => login(emailId, 'password1!', ip)));
    // Run one at a time by the single remaining place, or refused while it is taken: never a wrong answer.
    for (const r of rights) expect([200, 429]).toContain(r.statusCode);
    for (let i = 0; i < 3; i++) expect((await login(emailId, 'password1!', ip)).statusCode).toBe(200);
    expect((await login(emailId, 'wrongpass1', ip)).statusCode).toBe(401);
    expect((await login(emailId, 'password1!', ip)).statusCode).toBe(429);
  }, 120_000);
});

describe('sign-ups sent all at once', () => {
  it('30 parallel sign-ups from one address make 5 accounts (the hourly limit), not one per attempt', async () => {
    const ip = '192.0.2.150';
    const stamp = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        h.app.inject({
          method: 'POST',
          url: '/api/public/register',
          remoteAddress: ip,
          payload: {
            name: '동시가입',
            emailId: `race${i}-${stamp}@example.com`,
            pwd: 'password1!',
            birth: '1990-01-01',
            account: '12345678901',
            accountName: '국민',
          },
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(AUTH_LIMITS.signupsPerIpPerHour.limit);
    for (const r of answers.filter((a) => a.statusCode === 429)) expect(r.json().code).toBe('TOO_MANY_SIGNUPS');
    const made = await h.database.db
      .select({ id: customers.id })
      .from(customers)
      .where(and(like(customers.email, `race%-${stamp}@example.com`), eq(customers.name, '동시가입')));
    expect(made).toHaveLength(AUTH_LIMITS.signupsPerIpPerHour.limit);
  }, 120_000);
});

describe('payment codes under 150 parallel guesses', () => {
  it('5 wrong codes checked per customer; the customer’s own code is still answered afterwards with 429', async () => {
    const merchant = await createMerchant(h.database.db);
    const { token } = await h.signUp();
    const request = await createRequest(h, merchant.headers, 1_000);
    const validate = (value: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/payment/validate',
        headers: bearer(token),
        payload: { codeType: 'pincode', value },
        remoteAddress: '198.51.100.150',
      });
    const guesses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => validate(String(100000 + i).replace(request.pinCode, '999999'))),
    );
    const statuses = guesses.map((r) => r.statusCode);
    expect(checked(statuses)).toBe(5);
    for (const r of guesses.filter((g) => g.statusCode === 429)) expect(r.json().code).toBe('TOO_MANY_CODE_ATTEMPTS');
    expect((await validate(request.pinCode)).statusCode).toBe(429);
  }, 120_000);
});
