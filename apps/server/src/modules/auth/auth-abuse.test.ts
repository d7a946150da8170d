import { MSG } from '@ohgood/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hit } from '../../db/rate-limit-counters';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createRequest } from '../../test/payment-helpers';
import { VALIDATE_FAILURES_PER_IP } from '../payments/payments-actions';
import { AUTH_LIMITS, signupHashingStats } from './service';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

let n = 0;
const person = (overrides: Record<string, string> = {}) => ({
  name: '가입자',
  emailId: `abuse${++n}-${Date.now()}@example.com`,
  pwd: 'password1!',
  birth: '1990-01-01',
  account: '12345678901',
  accountName: '국민',
  ...overrides,
});
const register = (payload: object, remoteAddress: string) =>
  h.app.inject({ method: 'POST', url: '/api/public/register', payload, remoteAddress });
const login = (emailId: string, pwd: string, remoteAddress: string) =>
  h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd }, remoteAddress });

describe('login limits count failures, not successes', () => {
  it('more correct logins from one NAT address than any failure limit all succeed', async () => {
    const { emailId } = await h.signUp();
    for (let i = 0; i <= AUTH_LIMITS.loginFailuresPerAccount.limit; i++) {
      expect((await login(emailId, 'password1!', '203.0.113.10')).statusCode).toBe(200);
    }
  }, 90_000);

  it('an address over its ceiling gets 429 for wrong passwords, yet a correct password from it still signs in', async () => {
    const { emailId } = await h.signUp();
    const ip = '203.0.113.20';
    // The address has failed as often as its ceiling allows (credential stuffing over many accounts).
    const window = { key: `login-fail:ip:${ip}`, ...AUTH_LIMITS.loginFailuresPerIp };
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerIp.limit; i++) await hit(h.database.db, window, h.clock.now());
    const stuffing = await login('nobody@example.com', 'wrongpass1', ip);
    expect(stuffing.statusCode).toBe(429);
    expect(stuffing.json().code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect((await login(emailId, 'password1!', ip)).statusCode).toBe(200);
    // Another address is not affected at all.
    expect((await login('nobody@example.com', 'wrongpass1', '203.0.113.21')).statusCode).toBe(401);
  }, 90_000);

  it('5 failures on one account from one address lock that pair only; the owner signs in from elsewhere', async () => {
    const { emailId } = await h.signUp();
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerAccountIp.limit; i++) {
      expect((await login(emailId, 'wrongpass1', '203.0.113.30')).statusCode).toBe(401);
    }
    expect((await login(emailId, 'password1!', '203.0.113.30')).statusCode).toBe(429);
    // Other people behind that address sign in to their own accounts.
    const neighbour = await h.signUp();
    expect((await login(neighbour.emailId, 'password1!', '203.0.113.30')).statusCode).toBe(200);
    expect((await login(emailId, 'password1!', '203.0.113.31')).statusCode).toBe(200);
  }, 90_000);

  it('failures on one account from many addresses lock the account everywhere', async () => {
    const { emailId } = await h.signUp();
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerAccount.limit; i++) {
      expect((await login(emailId, 'wrongpass1', `198.18.0.${i + 1}`)).statusCode).toBe(401);
    }
    expect((await login(emailId, 'password1!', '198.18.1.1')).statusCode).toBe(429);
  }, 120_000);
});

describe('code validation limits count failures, not successes', () => {
  it('61 validations pass; 60 failed codes from 12 customers behind one address lock none of the others; the ceiling does', async () => {
    const merchant = await createMerchant(h.database.db);
    const { token } = await h.signUp();
    const request = await createRequest(h, merchant.headers, 1_000);
    const ip = '198.51.100.7';
    const validate = (t: string, value: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/payment/validate',
        headers: bearer(t),
        payload: { codeType: 'pincode', value },
        remoteAddress: ip,
      });
    const oks = await Promise.all(Array.from({ length: 61 }, () => validate(token, request.pinCode)));
    expect(oks.map((r) => r.statusCode)).toEqual(Array(61).fill(200));
    // 12 customers × 5 failed codes each: each of them is locked, the address and its other customers are not.
    const others = await Promise.all(Array.from({ length: 12 }, () => h.signUp()));
    const failed = await Promise.all(
      others.flatMap((other) => Array.from({ length: 5 }, () => validate(other.token, '000000'))),
    );
    expect(failed.map((r) => r.statusCode)).toEqual(Array(60).fill(404));
    expect((await validate(token, request.pinCode)).statusCode).toBe(200);
    expect((await validate(others[0]?.token ?? '', request.pinCode)).statusCode).toBe(429);
    // One machine guessing through many accounts reaches the address ceiling and is stopped.
    const window = { key: `pay-code-fail-ip:${ip}`, ...VALIDATE_FAILURES_PER_IP };
    for (let i = 60; i < VALIDATE_FAILURES_PER_IP.limit; i++) await hit(h.database.db, window, h.clock.now());
    const locked = await validate(token, request.pinCode);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('TOO_MANY_CODE_ATTEMPTS');
  }, 120_000);
});

describe('sign-up limits per address', () => {
  it('5 sign-ups per hour and 20 per day from one address, refused with the failure text and a reason', async () => {
    const ip = '192.0.2.50';
    for (let hour = 0; hour < 4; hour++) {
      for (let i = 0; i < 5; i++) expect((await register(person(), ip)).statusCode).toBe(200);
      const sixth = await register(person(), ip);
      expect(sixth.statusCode).toBe(429);
      // The fourth hour's five make twenty: the day's limit is the reason then.
      const reason = hour < 3 ? MSG.registerLimitHour : MSG.registerLimitDay;
      expect(sixth.json()).toMatchObject({ success: false, code: 'TOO_MANY_SIGNUPS', message: reason });
      expect(sixth.json().message.startsWith(MSG.registerFailed)).toBe(true);
      h.clock.advance(60 * 60 * 1000);
    }
    const overDay = await register(person(), ip);
    expect(overDay.statusCode).toBe(429);
    expect(overDay.json().message).toBe(MSG.registerLimitDay);
    // Another address is not affected.
    expect((await register(person(), '192.0.2.51')).statusCode).toBe(200);
    h.clock.advance(24 * 60 * 60 * 1000);
  }, 120_000);
});

describe('a register flood', () => {
  it('a taken email is refused before any password is hashed, with the same 409 as before', async () => {
    const taken = person();
    expect((await register(taken, '192.0.2.60')).statusCode).toBe(200);
    const hashedBefore = signupHashingStats.completed;
    const flood = await Promise.all(
      Array.from({ length: 15 }, (_, i) => register({ ...taken, pwd: `other${i}pass!` }, '192.0.2.61')),
    );
    for (const res of flood) expect(res.json()).toMatchObject({ success: false, code: 'EMAIL_TAKEN' });
    expect(signupHashingStats.completed).toBe(hashedBefore);
  });

  it('hashes one sign-up at a time with a short queue, so a login overtakes a flood of 50', async () => {
    const { emailId } = await h.signUp();
    const finished: string[] = [];
    const flood = Array.from({ length: 50 }, (_, i) =>
      register(person(), `192.0.2.${100 + i}`).then((res) => {
        finished.push('register');
        return res;
      }),
    );
    const res = await login(emailId, 'password1!', '192.0.2.99');
    finished.push('login');
    expect(res.statusCode).toBe(200);
    const results = await Promise.all(flood);
    expect(results.filter((r) => r.statusCode >= 500)).toEqual([]);
    for (const r of results) expect([200, 429]).toContain(r.statusCode);
    expect(results.some((r) => r.statusCode === 429 && r.json().message === MSG.registerBusy)).toBe(true);
    // Never more than one sign-up hash at a time, and the login did not wait for the queue to drain.
    expect(signupHashingStats.maxRunning).toBe(1);
    expect(finished.indexOf('login')).toBeLessThan(finished.length - 1);
  }, 120_000);
});
