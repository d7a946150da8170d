import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEventRetries, domainEvents } from '../db/schema';
import { withTx } from '../db/tx';
import { recordEvents } from '../events/record-event';
import { runJob } from '../jobs/runner';
import { startScheduler } from '../jobs/scheduler';
import { runAutopay } from '../modules/autopay/autopay-job';
import { createSandboxBank, setSandboxAccount } from '../modules/bank/sandbox-bank';
import { verifyAutopay } from '../test/autopay-fixture';
import { createHarness, type Harness } from '../test/harness';
import { kstAt } from '../test/notice-helpers';
import { insertPurchase } from '../test/purchase-fixture';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line (`name{labels} value`) in Prometheus text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      config: { METRICS_TOKEN: TOKEN, PUBLIC_CACHE_MS: 60_000, PUBLIC_FEED_CACHE_MS: 60_000 },
    });
  });
  afterAll(() => h.close());

  const scrape = (authorization?: string) =>
    h.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('answers only the bearer of the configured token', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(TOKEN)).statusCode).toBe(401);
    const ok = await scrape(`Bearer ${TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('text/plain');
  });

  it('reports request durations per route pattern, pool use, cache hits, streams, the queue and job runs', async () => {
    // The first read moves the ranking's clock (a ranking change: that answer is not kept); then a miss, a hit.
    for (let i = 0; i < 3; i += 1) {
      expect((await h.app.inject({ method: 'GET', url: '/api/public/shorts/feeds?page=1&size=5' })).statusCode).toBe(
        200,
      );
    }
    await h.app.inject({ method: 'GET', url: '/health' });
    const stop = await startScheduler(
      h.database,
      h.clock,
      h.app.log,
      {
        autopay: async () => ({}),
        payouts: async () => ({}),
        pushes: async () => 0,
        webhooks: async () => 0,
        mediaSweep: async () => ({}),
      },
      h.app.metrics,
    );
    await stop();
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    const feed = 'http_request_duration_seconds_count{method="GET",route="/api/public/shorts/feeds",status_code="200"}';
    expect(sample(text, feed)).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/health",status_code="200"}')).toBe(1);
    // The route pattern, never a raw URL with its query.
    expect(text).not.toContain('page=1');
    expect(sample(text, 'cache_hits_total{cache="public-feed"}')).toBe(1);
    expect(sample(text, 'cache_misses_total{cache="public-feed"}')).toBe(2);
    expect(sample(text, 'db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(sample(text, 'sse_streams_open')).toBe(0);
    expect(sample(text, 'transcode_queue_length')).toBe(0);
    // The start-up catch-up ran the latest daily prune.
    expect(sample(text, 'job_runs_total{job="prune",outcome="ran"}')).toBe(1);
    expect(sample(text, 'job_duration_seconds_count{job="prune"}')).toBe(1);
  });

  it("counts the event loop's busy time: code that holds the loop adds at least its own length", async () => {
    const busy = async () => sample((await scrape(`Bearer ${TOKEN}`)).body, 'event_loop_busy_seconds_total') ?? -1;
    const before = await busy();
    expect(before).toBeGreaterThan(0);
    // Synchronous work the loop cannot leave: 60 ms of it, by the monotonic clock.
    const held = performance.now();
    while (performance.now() - held < 60);
    expect((await busy()) - before).toBeGreaterThanOrEqual(0.06);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('does not exist, whatever the caller sends', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer anything' } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('http_request_duration_seconds');
  });
});

describe('/metrics for the alerts on scheduled work (docs/deploy.md)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ now: kstAt('2026-11-05').toISOString(), config: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => h.close());

  const scrapeText = async () =>
    (await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it("ages each job's last finished run on the app clock, and counts today's refused debits", async () => {
    // A verified autopay customer whose account is empty on the due date: the bank refuses the debit.
    const account = '5000000001';
    const { customerId, token } = await h.signUp({ accountName: '신한', account });
    await verifyAutopay(h, { token, customerId });
    await insertPurchase(h.database.db, { customerId, totalPrice: 33_000, at: kstAt('2026-11-06') });
    await setSandboxAccount(h.database.db, '신한', account, { balance: 0 }, h.clock.now());
    h.clock.set(kstAt('2026-12-15', 10, 0));
    await runJob(h.database.db, h.clock, 'autopay');
    await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);

    h.clock.set(kstAt('2026-12-15', 12, 0));
    const text = await scrapeText();
    // The plan finished at 10:00, two hours ago on the app clock; a job that never ran has no series.
    expect(sample(text, 'job_last_success_age_seconds{job="autopay"}')).toBe(2 * 60 * 60);
    expect(sample(text, 'job_last_success_age_seconds{job="overdue"}')).toBeUndefined();
    expect(sample(text, 'autopay_failed_debits_today')).toBe(1);

    // The next day: no refused debit yet today, and the plan a day older.
    h.clock.set(kstAt('2026-12-16', 9, 0));
    const nextDay = await scrapeText();
    expect(sample(nextDay, 'autopay_failed_debits_today')).toBe(0);
    expect(sample(nextDay, 'job_last_success_age_seconds{job="autopay"}')).toBe(23 * 60 * 60);
  });
});

describe('/metrics for the outbox (docs/rules/operations.md#O13)', () => {
  let h: Harness;
  beforeAll(async () => {
    // No relay runs, so what is recorded stays undispatched until the test drains it.
    h = await createHarness({ config: { METRICS_TOKEN: TOKEN, DISPATCH_EVENTS: false } });
  });
  afterAll(() => h.close());

  const scrapeText = async () =>
    (await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it('counts undispatched events, and failed deliveries waiting per consumer', async () => {
    const { customerId } = await h.signUp();
    const lifted = { type: 'account.suspension_lifted', customerId, reason: 'REPAID' } as const;
    await withTx(h.database.db, (tx) => recordEvents(tx, [lifted, lifted], h.clock.now()));
    const before = await scrapeText();
    expect(sample(before, 'outbox_undispatched_events')).toBe(2);
    expect(before).not.toContain('event_consumer_retries{');

    const [event] = await h.database.db.select().from(domainEvents).where(eq(domainEvents.customerId, customerId));
    await h.database.db.insert(domainEventRetries).values({
      consumer: 'receipts',
      eventId: event?.id ?? 0,
      attempts: 1,
      dueAt: h.clock.now(),
      lastError: 'the receipt printer is down',
    });
    await h.app.relay.drain();
    const after = await scrapeText();
    expect(sample(after, 'outbox_undispatched_events')).toBe(0);
    // No consumer of that name runs here, so its retry waits (an instance that runs it would take it).
    expect(sample(after, 'event_consumer_retries{consumer="receipts"}')).toBe(1);
  });
});
