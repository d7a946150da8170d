import { MSG } from '@ohgood/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createOperator, passwordOnly, totpAt } from '../../test/staff-fixture';

/**
 * The console's sign-in limits cannot be raced (docs/security.md): attempts sent all at once
 * are counted before the password or code is checked, so they get no more checks than one at a time would.
 * A check is any answer but 429 (only a checked password or code is told it was wrong, 401).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const checked = (statuses: number[]) => statuses.filter((s) => s !== 429).length;

describe('console sign-in under parallel guessing', () => {
  it('150 parallel wrong passwords for one operator: 5 checked', async () => {
    const operator = await createOperator(h, 'SUPPORT');
    const answers = await Promise.all(
      Array.from({ length: 150 }, () =>
        h.app.inject({
          method: 'POST',
          url: '/api/ops/auth/sign-in',
          payload: { email: operator.email, password: 'wrong-password' },
          remoteAddress: '203.0.113.160',
        }),
      ),
    );
    expect(checked(answers.map((r) => r.statusCode))).toBe(5);
    for (const r of answers.filter((a) => a.statusCode === 429)) {
      expect(r.json()).toMatchObject({ code: 'TOO_MANY_LOGIN_ATTEMPTS', message: MSG.tooManyAttempts });
    }
  }, 120_000);

  it('60 parallel TOTP codes for one session: 5 checked, and the right code among them gets no pass', async () => {
    const operator = await createOperator(h, 'SUPPORT');
    const token = await passwordOnly(h, operator.email);
    const right = await totpAt(h, operator.totpSecret);
    // Valid-looking codes of steps far from now: each is wrong, and each costs the attacker a check.
    const wrong = await Promise.all(
      Array.from({ length: 60 }, (_, i) => totpAt(h, operator.totpSecret, 3600 + 30 * i)),
    );
    const answers = await Promise.all(
      wrong
        .filter((code) => code !== right)
        .map((code) =>
          h.app.inject({ method: 'POST', url: '/api/ops/auth/totp', headers: bearer(token), payload: { code } }),
        ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(checked(statuses)).toBe(5);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    // The window is full now: even the right code is not checked until it ends.
    const late = await h.app.inject({
      method: 'POST',
      url: '/api/ops/auth/totp',
      headers: bearer(token),
      payload: { code: right },
    });
    expect(late.statusCode).toBe(429);
  }, 120_000);

  it('a right TOTP code gives its place back: a success does not count as a failure', async () => {
    const operator = await createOperator(h, 'SUPPORT');
    const step = (token: string, code: string) =>
      h.app.inject({ method: 'POST', url: '/api/ops/auth/totp', headers: bearer(token), payload: { code } });
    const first = await passwordOnly(h, operator.email);
    for (let i = 0; i < 4; i++) expect((await step(first, '000000')).statusCode).toBe(401);
    expect((await step(first, await totpAt(h, operator.totpSecret))).statusCode).toBe(200);
    // One failure left in the window, and a next step's code is still checked after it.
    h.clock.advance(30_000);
    const second = await passwordOnly(h, operator.email);
    expect((await step(second, '000000')).statusCode).toBe(401);
    expect((await step(second, await totpAt(h, operator.totpSecret))).statusCode).toBe(429);
  }, 120_000);
});
