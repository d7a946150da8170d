import { CHECKIN_MSG } from '@ohgood/contract/bill-messages';
import { LIMITS } from '@ohgood/contract/limits';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkins, customers, pointLedger } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { ledgerSum, pointBalance as storedBalance } from '../../test/ledger-assertions';
import { drawPrize } from './service';

let h: Harness;
beforeAll(async () => {
  // 23:50 KST on 22 November.
  h = await createHarness({ now: '2026-11-22T14:50:00Z' });
});
afterAll(() => h.close());

const today = (token: string) => h.app.inject({ method: 'GET', url: '/api/checkin/today', headers: bearer(token) });
const spin = (token: string, query = '') =>
  h.app.inject({ method: 'POST', url: `/api/checkin/roulette${query}`, headers: bearer(token) });

describe('attendance roulette (R4)', () => {
  it('draws only the six prizes, each of them eventually', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 600; i++) seen.add(drawPrize());
    expect([...seen].sort((a, b) => a - b)).toEqual([...LIMITS.rouletteValues]);
  });

  it('awards the server-drawn prize once per KST day, ignores the point parameter, and refuses a second spin', async () => {
    h.clock.set('2026-11-22T14:50:00Z');
    const { token, customerId } = await h.signUp();
    let res = await today(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBe(false);

    res = await spin(token, '?point=100000');
    expect(res.statusCode).toBe(200);
    const { point, pointBalance } = res.json().data;
    expect(LIMITS.rouletteValues).toContain(point);
    expect(pointBalance).toBe(point);
    expect((await today(token)).json()).toBe(true);

    const second = await spin(token);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      success: false,
      code: 'ALREADY_CHECKED_IN',
      message: CHECKIN_MSG.alreadyDone,
    });
    expect(await storedBalance(h.database.db, customerId)).toBe(point);
    const [entry] = await h.database.db.select().from(pointLedger).where(eq(pointLedger.customerId, customerId));
    expect(entry).toMatchObject({
      amount: point,
      reason: 'CHECKIN_ROULETTE',
      kstDate: '2026-11-22',
      refType: 'checkin',
    });

    // 00:00 KST is a new day, although it is still 22 November in UTC.
    h.clock.set('2026-11-22T15:00:00Z');
    const { token: fresh } = await loginAgain(customerId);
    expect((await today(fresh)).json()).toBe(false);
    const next = await spin(fresh);
    expect(next.statusCode).toBe(200);
    expect(next.json().data.pointBalance).toBe(point + next.json().data.point);
    expect(await ledgerSum(h.database.db, customerId)).toBe(await storedBalance(h.database.db, customerId));
  });

  it('concurrent spins on the same day: exactly one succeeds', async () => {
    h.clock.set('2026-11-24T01:00:00Z');
    const { token, customerId } = await h.signUp();
    const results = await Promise.all(Array.from({ length: 6 }, () => spin(token)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const rows = await h.database.db.select().from(checkins).where(eq(checkins.customerId, customerId));
    expect(rows).toHaveLength(1);
    expect(await storedBalance(h.database.db, customerId)).toBe(rows[0]?.point);
    expect(await ledgerSum(h.database.db, customerId)).toBe(rows[0]?.point);
  });

  it('needs a token', async () => {
    expect((await h.app.inject({ method: 'POST', url: '/api/checkin/roulette' })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/api/checkin/today' })).statusCode).toBe(401);
  });
});

/** Logs the customer in again at the clock's current time (tokens are issued against the clock). */
async function loginAgain(customerId: number): Promise<{ token: string }> {
  const [row] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
  const res = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId: row?.email, pwd: 'password1!' } });
  return { token: res.json().accessToken };
}
