import { kstDate } from '@ohgood/contract/kst';
import { generate } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../lib/clock';
import { ensureDemoCustomer } from '../../seed/demo-customer';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createOperator, passwordOnly, signedInOperator } from '../../test/staff-fixture';

/*
 * The app clock and the wall clock (docs/rules/operations.md#O2): with the app clock shifted (CLOCK_START,
 * a ManualClock here) the console's dates follow the app clock, while a staff TOTP code is checked against
 * real time, because the authenticator app on a phone reads real time.
 */
let h: Harness | undefined;
afterEach(() => h?.close());

/** Years away from the real day this suite runs on. */
const SHIFTED = '2031-02-14T01:00:00Z';

const codeAt = (secret: string, at: Date) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });

describe('the clocks of the operator console', () => {
  it('checks a TOTP code against the wall clock while the app clock is shifted', async () => {
    h = await createHarness({ now: SHIFTED, wallClock: systemClock });
    const operator = await createOperator(h, 'SUPPORT');
    const token = await passwordOnly(h, operator.email);
    const verify = (code: string) =>
      h?.app.inject({ method: 'POST', url: '/api/ops/auth/totp', headers: bearer(token), payload: { code } });

    // The code of the app clock's moment is what no phone shows: refused.
    const shifted = await verify(await codeAt(operator.totpSecret, h.clock.now()));
    expect(shifted?.statusCode).toBe(401);
    expect(shifted?.json()).toMatchObject({ code: 'INVALID_TOTP' });
    // The code a real authenticator shows now is accepted.
    const real = await verify(await codeAt(operator.totpSecret, new Date()));
    expect(real?.statusCode, real?.body).toBe(200);
  });

  it('follows a wall clock other than the app clock, whatever the app clock says', async () => {
    const wall = new ManualClock('2031-06-01T00:00:00Z');
    h = await createHarness({ now: SHIFTED, wallClock: wall });
    const operator = await createOperator(h, 'SUPPORT');
    const token = await passwordOnly(h, operator.email);
    h.clock.advance(10 * 60_000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/ops/auth/totp',
      headers: bearer(token),
      payload: { code: await codeAt(operator.totpSecret, wall.now()) },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('dates a seeded customer’s sign-up on the app clock in the console', async () => {
    h = await createHarness({ now: SHIFTED });
    const customerId = await ensureDemoCustomer(h.database.db, h.clock.now());
    const support = await signedInOperator(h, 'SUPPORT');
    const res = await h.app.inject({ method: 'GET', url: `/api/ops/customers/${customerId}`, headers: support.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(kstDate(res.json().customer.createdAt)).toBe(kstDate(h.clock.now()));
    expect(kstDate(res.json().customer.createdAt)).not.toBe(kstDate(systemClock.now()));
  });
});
