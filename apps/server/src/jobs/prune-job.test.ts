import { kstStartOfDay } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hit, isOver, pruneCounters } from '../db/rate-limit-counters';
import { idempotencyKeys, jobRuns, notifications, purchases, rateLimitCounters } from '../db/schema';
import { withTx } from '../db/tx';
import { LONGEST_WINDOW_MS } from '../lib/rate-limit';
import { TOKEN_TTL_SECONDS } from '../modules/auth/tokens';
import { IDEMPOTENCY_RETENTION_MS } from '../modules/payments/idempotency-retention';
import { createHarness, type Harness } from '../test/harness';
import { createMerchant } from '../test/merchant-fixture';
import { createRequest, finalPay, validatePin } from '../test/payment-helpers';
import { parseJobArgs } from './cli-args';
import { pruneExpired } from './prune-job';
import { catchUp, JOBS, runJob } from './runner';

const HOUR = 3_600_000;
const TEN_MINUTES = 10 * 60_000;
const kst = (date: string, hh: number, mm = 0) => new Date(kstStartOfDay(date).getTime() + (hh * 60 + mm) * 60_000);

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: '2026-11-22T03:00:00Z' });
});
afterEach(() => h.close());

const counters = () => h.database.db.select().from(rateLimitCounters).orderBy(rateLimitCounters.key);
const storedAnswers = () => h.database.db.select().from(idempotencyKeys);

async function login(emailId: string): Promise<string> {
  const res = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'password1!' } });
  return res.json().accessToken;
}

describe('rate-limit counters', () => {
  it('drops only windows that began more than the longest window ago, however short they were', async () => {
    const db = h.database.db;
    const day = { key: 'day', limit: 2, windowMs: LONGEST_WINDOW_MS };
    const short = { key: 'short', limit: 2, windowMs: TEN_MINUTES };
    // Windows are aligned to the epoch: the day window below runs 00:00–24:00 UTC on 22 November.
    await hit(db, day, new Date('2026-11-22T00:30:00Z'));
    await hit(db, short, new Date('2026-11-22T00:30:00Z'));
    await hit(db, short, new Date('2026-11-22T23:50:00Z'));
    await hit(db, day, new Date('2026-11-22T23:50:00Z'));

    // 23:59 UTC: the day window is still open and its count must still hold.
    const late = new Date('2026-11-22T23:59:00Z');
    expect(await pruneCounters(db, late)).toBe(0);
    expect(await isOver(db, day, late)).toBe(true);

    // 00:31 UTC the next day: the day window (ended at 00:00) and the 00:30 ten-minute window began more
    // than a day ago; the 23:50 window did not and stays.
    const next = new Date('2026-11-23T00:31:00Z');
    expect(await pruneCounters(db, next)).toBe(2);
    expect((await counters()).map((c) => [c.key, c.windowStart.toISOString(), c.count])).toEqual([
      ['short', '2026-11-22T23:50:00.000Z', 1],
    ]);
    expect(await pruneCounters(db, next)).toBe(0);
  });

  it('refuses a window longer than the prune keeps counters', async () => {
    const twoDays = { key: 'too-long', limit: 1, windowMs: 2 * LONGEST_WINDOW_MS };
    await expect(hit(h.database.db, twoDays, h.clock.now())).rejects.toThrow(/exceeds a day/);
    await expect(isOver(h.database.db, twoDays, h.clock.now())).rejects.toThrow(/exceeds a day/);
  });
});

describe('idempotency answers', () => {
  it('are kept longer than a login token lives, the only time a retry from the same sheet can come', () => {
    expect(IDEMPOTENCY_RETENTION_MS).toBeGreaterThan(TOKEN_TTL_SECONDS * 1000);
  });

  it('a retry within the retention gets the first answer; after it, a paid request is refused, never paid twice', async () => {
    const merchant = await createMerchant(h.database.db, '정리상점');
    const { customerId, emailId } = await h.signUp();
    const payWithKey = async (key: string) => {
      const token = await login(emailId);
      const request = await createRequest(h, merchant.headers, 4_000);
      expect((await validatePin(h, token, request.pinCode)).statusCode).toBe(200);
      const res = await finalPay(h, token, request.requestId, 0, { 'idempotency-key': key });
      expect(res.statusCode).toBe(200);
      return { requestId: request.requestId, first: res.json() };
    };
    const old = await payWithKey('sheet-old'); // 12:00 KST on the 22nd
    h.clock.advance(23 * HOUR);
    const recent = await payWithKey('sheet-recent'); // 11:00 KST on the 23rd
    expect(await storedAnswers()).toHaveLength(4); // per payment: the request's answer and the key's

    h.clock.advance(2 * HOUR); // the old payment's answers are now 25 hours old
    const outcome = await runJob(h.database.db, h.clock, 'prune');
    expect(outcome).toMatchObject({ ran: true, period: '2026-11-23', result: { idempotencyKeys: 2 } });
    const left = await storedAnswers();
    expect(left.map((row) => row.key).sort()).toEqual([`key:sheet-recent`, `request:${recent.requestId}`]);

    const token = await login(emailId);
    const again = await finalPay(h, token, recent.requestId, 0, { 'idempotency-key': 'sheet-recent' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(recent.first);
    const late = await finalPay(h, token, old.requestId, 0, { 'idempotency-key': 'sheet-old' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ success: false, code: 'ALREADY_PAID' });
    expect(await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId))).toHaveLength(2);
  });
});

describe('the prune job', () => {
  /** Two counters a day apart and one stored answer written now. */
  async function someRows() {
    const db = h.database.db;
    const window = { key: 'login-fail:someone', limit: 5, windowMs: TEN_MINUTES };
    await hit(db, window, new Date(h.clock.now().getTime() - 2 * LONGEST_WINDOW_MS));
    await hit(db, window, h.clock.now());
    await db
      .insert(idempotencyKeys)
      .values({ customerId: 1, scope: 'test', key: 'live', response: {}, createdAt: h.clock.now() });
    return window;
  }

  it('runs daily at 03:30 KST, claimed per KST date', () => {
    expect(JOBS.prune).toMatchObject({ cadence: 'daily', cron: '30 3 * * *' });
    expect(parseJobArgs(['prune'], '2026-11-22')).toEqual({ job: 'prune', date: undefined });
  });

  it('two runners racing for the same day: exactly one prunes, the others change nothing', async () => {
    await someRows();
    // On PostgreSQL these are separate pooled connections, as several server instances would be.
    const outcomes = await Promise.all([
      runJob(h.database.db, h.clock, 'prune'),
      runJob(h.database.db, h.clock, 'prune'),
      runJob(h.database.db, h.clock, 'prune'),
    ]);
    expect(outcomes.filter((o) => o.ran)).toEqual([
      {
        job: 'prune',
        period: '2026-11-22',
        ran: true,
        result: { rateLimitCounters: 1, idempotencyKeys: 0, notices: 0, webhookDeliveries: 0, webhookEvents: 0 },
      },
    ]);
    expect(outcomes.filter((o) => !o.ran)).toHaveLength(2);
    const runs = await h.database.db.select().from(jobRuns);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ job: 'prune', period: '2026-11-22' });
    expect(runs[0]?.finishedAt).not.toBeNull();
  });

  it('is idempotent: the same day again is skipped, the next day deletes nothing live', async () => {
    const window = await someRows();
    expect((await runJob(h.database.db, h.clock, 'prune')).result).toEqual({
      rateLimitCounters: 1,
      idempotencyKeys: 0,
      notices: 0,
      webhookDeliveries: 0,
      webhookEvents: 0,
    });
    expect(await runJob(h.database.db, h.clock, 'prune')).toMatchObject({ ran: false, result: null });
    // The work itself, repeated, finds nothing more to delete.
    expect(await withTx(h.database.db, (tx) => pruneExpired(tx, '2026-11-22', h.clock.now()))).toEqual({
      rateLimitCounters: 0,
      idempotencyKeys: 0,
      notices: 0,
      webhookDeliveries: 0,
      webhookEvents: 0,
    });
    h.clock.advance(HOUR * 12); // 00:00 KST on the 23rd: the live rows are 12 hours old
    expect(await runJob(h.database.db, h.clock, 'prune')).toMatchObject({
      ran: true,
      period: '2026-11-23',
      result: { rateLimitCounters: 0, idempotencyKeys: 0, notices: 0, webhookDeliveries: 0, webhookEvents: 0 },
    });
    // What is left is what was live: this morning's window and the answer written then.
    expect((await counters()).map((c) => [c.key, c.windowStart.toISOString()])).toEqual([
      [window.key, '2026-11-22T03:00:00.000Z'],
    ]);
    expect((await storedAnswers()).map((row) => row.key)).toEqual(['live']);
  });

  it('start-up catches up only the latest missed day, stamped with its scheduled instant', async () => {
    await someRows();
    // 02:00 KST on the 23rd: today's 03:30 has not come, so the missed run is the 22nd's.
    h.clock.set(kst('2026-11-23', 2));
    const early = (await catchUp(h.database.db, h.clock)).filter((o) => o.job === 'prune');
    expect(early).toEqual([
      {
        job: 'prune',
        period: '2026-11-22',
        ran: true,
        result: { rateLimitCounters: 1, idempotencyKeys: 0, notices: 0, webhookDeliveries: 0, webhookEvents: 0 },
      },
    ]);
    const [run] = await h.database.db.select().from(jobRuns).where(eq(jobRuns.job, 'prune'));
    expect(run?.startedAt).toEqual(kst('2026-11-22', 3, 30));
    expect((await catchUp(h.database.db, h.clock)).filter((o) => o.job === 'prune')).toEqual([]);
    // After 03:30 the 23rd's run is due; the days before it are not run again.
    h.clock.set(kst('2026-11-23', 3, 30));
    expect((await catchUp(h.database.db, h.clock)).filter((o) => o.job === 'prune').map((o) => o.period)).toEqual([
      '2026-11-23',
    ]);
  });
});

describe('notices (docs/rules/notifications.md#N8)', () => {
  it('deletes notices older than 90 days and keeps the rest', async () => {
    const { customerId } = await h.signUp();
    const day = 24 * HOUR;
    const notice = (key: string, ageDays: number) => ({
      customerId,
      dedupeKey: key,
      kind: 'roulette_win',
      category: 'benefit',
      title: '출석 룰렛 당첨',
      body: '10P',
      link: '/point/history',
      createdAt: new Date(h.clock.now().getTime() - ageDays * day),
    });
    await h.database.db.insert(notifications).values([notice('old', 91), notice('recent', 89)]);
    expect(await withTx(h.database.db, (tx) => pruneExpired(tx, '2026-11-22', h.clock.now()))).toMatchObject({
      notices: 1,
    });
    const left = await h.database.db.select({ key: notifications.dedupeKey }).from(notifications);
    expect(left).toEqual([{ key: 'recent' }]);
  });
});
