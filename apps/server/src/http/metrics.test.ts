import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduler } from '../jobs/scheduler';
import { createHarness, type Harness } from '../test/harness';

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
      h.database.db,
      h.clock,
      h.app.log,
      { autopay: async () => ({}), pushes: async () => 0, mediaSweep: async () => ({}) },
      h.app.metrics,
    );
    stop();
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
