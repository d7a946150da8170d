import { createHash, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { MSG } from '@ohgood/contract/messages';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { OutboxBacklog } from '../events/relay';
import type { CacheHome } from '../lib/cache-home';
import { notFound, unauthorized } from '../lib/errors';

/** What the operational metrics read at scrape time. */
export interface MetricsSources {
  pool: pg.Pool;
  caches: CacheHome;
  /** Live payment status streams (SSE) open on this instance. */
  openStreams: () => number;
  /** Uploads waiting for or in transcoding on this instance. */
  transcodeQueue: () => number;
  /** The latest reconciled day's mismatch count (cluster-wide, from the database); null before any. */
  reconciliationMismatches: () => Promise<number | null>;
  /** When each scheduled job last finished a run (cluster-wide), and the app clock's now to age it by. */
  jobsLastFinished: () => Promise<Array<{ job: string; finishedAt: Date }>>;
  now: () => Date;
  /** Autopay debits the bank refused today (KST, cluster-wide). */
  failedDebitsToday: () => Promise<number>;
  /** Domain events not yet dispatched, and failed deliveries waiting per consumer (cluster-wide). */
  outboxBacklog: () => Promise<OutboxBacklog>;
}

export interface AppMetrics {
  /** A scheduled job's run: its name, how long it took, and how it ended. */
  jobRun(job: string, seconds: number, outcome: 'ran' | 'skipped' | 'failed'): void;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Prometheus metrics of this instance (`prom-client`, its own registry): request durations per route,
 * database pool use, cache hits and misses, job runs, open SSE streams, the transcode queue and how busy the
 * event loop is. Served at `GET /metrics` only with `Authorization: Bearer <token>`; without a token
 * configured it answers 404, so nothing is public by default.
 */
export function registerMetrics(app: FastifyInstance, token: string | undefined, sources: MetricsSources): AppMetrics {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // A callback hook: every response passes it, and an async one costs a promise and a microtask each time.
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids and queries would make a series per request.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') {
      requests.observe(
        { method: request.method, route, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    }
    done();
  });

  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting clients)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, sources.pool.totalCount);
      this.set({ state: 'idle' }, sources.pool.idleCount);
      this.set({ state: 'waiting' }, sources.pool.waitingCount);
    },
  });
  const cacheCounter = (name: string, help: string, field: 'hits' | 'misses') =>
    new Counter({
      name,
      help,
      labelNames: ['cache'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const stats of sources.caches.stats()) this.inc({ cache: stats.name }, stats[field]);
      },
    });
  cacheCounter('cache_hits_total', 'In-process cache hits by cache', 'hits');
  cacheCounter('cache_misses_total', 'In-process cache misses by cache', 'misses');
  new Gauge({
    name: 'cache_entries',
    help: 'In-process cache entries by cache',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      for (const stats of sources.caches.stats()) this.set({ cache: stats.name }, stats.size);
    },
  });
  new Gauge({
    name: 'sse_streams_open',
    help: 'Live payment status streams open on this instance',
    registers: [registry],
    collect() {
      this.set(sources.openStreams());
    },
  });
  new Gauge({
    name: 'transcode_queue_length',
    help: 'Uploads waiting for or in transcoding on this instance',
    registers: [registry],
    collect() {
      this.set(sources.transcodeQueue());
    },
  });
  new Gauge({
    name: 'reconciliation_mismatches',
    help: "Mismatches in the latest reconciled day between the bank's movements and our books (0 before any)",
    registers: [registry],
    async collect() {
      this.set((await sources.reconciliationMismatches()) ?? 0);
    },
  });
  new Gauge({
    name: 'job_last_success_age_seconds',
    help: 'Seconds since each scheduled job last finished a run, on the app clock (cluster-wide)',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const now = sources.now().getTime();
      for (const { job, finishedAt } of await sources.jobsLastFinished()) {
        this.set({ job }, Math.max(0, (now - finishedAt.getTime()) / 1000));
      }
    },
  });
  new Gauge({
    name: 'autopay_failed_debits_today',
    help: 'Autopay debits the bank refused today, KST (cluster-wide)',
    registers: [registry],
    async collect() {
      this.set(await sources.failedDebitsToday());
    },
  });
  new Gauge({
    name: 'outbox_undispatched_events',
    help: 'Domain events recorded and not yet handed to their consumers (cluster-wide)',
    registers: [registry],
    async collect() {
      this.set((await sources.outboxBacklog()).undispatched);
    },
  });
  new Gauge({
    name: 'event_consumer_retries',
    help: 'Events a consumer failed to handle, waiting for its retry, by consumer (cluster-wide)',
    labelNames: ['consumer'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { consumer, count } of (await sources.outboxBacklog()).retries) this.set({ consumer }, count);
    },
  });
  new Counter({
    name: 'event_loop_busy_seconds_total',
    help: "Time this instance's event loop spent running code (its rate is the loop's utilization, 0-1)",
    registers: [registry],
    collect() {
      // One thread runs every request's code: near a utilization of 1, requests wait for each other.
      this.reset();
      this.inc(performance.eventLoopUtilization().active / 1000);
    },
  });
  const jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Scheduled job runs by job and outcome (skipped: another instance had run it)',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'job_duration_seconds',
    help: 'Scheduled job run duration by job',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });

  const expected = token ? sha256(`Bearer ${token}`) : undefined;
  // Registered either way, so with metrics off the path is a plain 404 (not the web app's fallback page).
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (!expected) throw notFound('NOT_FOUND', '찾을 수 없습니다.');
    // Compared as digests: equal length, constant time, whatever the caller sent.
    if (!timingSafeEqual(sha256(request.headers.authorization ?? ''), expected)) {
      reply.header('www-authenticate', 'Bearer');
      throw unauthorized(MSG.unauthorized);
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });

  return {
    jobRun(job, seconds, outcome) {
      jobRuns.inc({ job, outcome });
      if (outcome !== 'skipped') jobSeconds.observe({ job }, seconds);
    },
  };
}
