import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ReadinessResponse, readinessResponse } from '@ohgood/contract/system';
import type { FastifyInstance } from 'fastify';
import { type Db, ping } from '../db/client';
import type { MediaStorage } from '../modules/media/storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set at SIGTERM: readiness fails so the load balancer drains this instance before it closes. */
    draining: boolean;
  }
}

/** A dependency that hangs must fail the probe, not hold it past the balancer's own timeout. */
const CHECK_TIMEOUT_MS = 2_000;

async function outcome(check: () => Promise<void>): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Big enough to need fresh blocks on any file system: a full disk refuses it even where a tiny file would
 * still fit in a partly used block.
 */
const PROBE_BYTES = 64 * 1024;

/** How the probe's file is named: it exists for the moment of each check, beside the transcodes' scratch. */
export const PROBE_FILE_PREFIX = '.ready-';

/** Writes, syncs and removes a probe file: uploads and transcodes need scratch space under DATA_DIR. */
async function writeProbe(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${PROBE_FILE_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(file, Buffer.alloc(PROBE_BYTES), { flush: true });
  } finally {
    await rm(file, { force: true });
  }
}

/** A check's last outcome and when it was taken. */
interface Sample {
  outcome: 'ok' | 'error';
  at: number;
}

/**
 * Runs one check in the background, again `everyMs` after each run ends, and keeps its last outcome: the
 * probe answers from memory, so a busy pool or a slow synced disk write never holds a balancer's probe
 * (p99 ≤ 50 ms under load, docs/performance.md). A result older than `staleMs` (the sampler itself stuck)
 * counts as an error: readiness never vouches for a state it has not seen lately.
 */
export class CheckSampler {
  private last: Sample | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The first sample: the probe waits for it once, so it never answers before anything was checked. */
  readonly first: Promise<void>;

  constructor(
    private readonly check: () => Promise<void>,
    private readonly everyMs: number,
    private readonly staleMs = everyMs + CHECK_TIMEOUT_MS + 2_000,
  ) {
    this.first = this.run();
  }

  /** The last outcome, or 'error' when it is older than the staleness bound. */
  current(now = Date.now()): 'ok' | 'error' {
    if (!this.last || now - this.last.at > this.staleMs) return 'error';
    return this.last.outcome;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    this.last = { outcome: await outcome(this.check), at: Date.now() };
    if (!this.stopped) this.timer = setTimeout(() => void this.run(), this.everyMs).unref();
  }
}

/**
 * How often each check is sampled. The database often, so readiness turns 200 within a second of its
 * return (and 503 as soon as it goes); the synced disk write and the media store less often (each costs an
 * fsync or a round trip to the store).
 */
const SAMPLE_EVERY_MS = { database: 250, dataDir: 1_000, storage: 2_000 } as const;

/**
 * Readiness (`/health/ready`), as opposed to liveness (`/health`): can this instance serve requests now?
 * It requires the database and a writable DATA_DIR; the media store is checked and reported, but a media
 * outage only holds uploads back (they answer 503 with a clear message), so it never takes the instance
 * out of the balancer: payments and feeds keep working. Draining is reported during a graceful shutdown.
 * The checks are sampled off the request path (`CheckSampler`); the probe reads their last results.
 */
export function registerReadiness(
  app: FastifyInstance,
  deps: { db: Db; connectable: Promise<void>; storage: MediaStorage; dataDir: string },
): void {
  app.decorate('draining', false);
  // Responses written while draining close their connection, so no keep-alive socket outlives the server.
  // A callback hook (every response passes it; an async one costs a promise and a microtask each time).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  const samplers = {
    // No ping before a connection may open (a new embedded cluster's roles are made while the app is built).
    database: new CheckSampler(() => deps.connectable.then(() => ping(deps.db)), SAMPLE_EVERY_MS.database),
    storage: new CheckSampler(() => deps.storage.check(), SAMPLE_EVERY_MS.storage),
    dataDir: new CheckSampler(() => writeProbe(deps.dataDir), SAMPLE_EVERY_MS.dataDir),
  };
  const started = Promise.all(Object.values(samplers).map((sampler) => sampler.first));
  app.addHook('onClose', async () => {
    for (const sampler of Object.values(samplers)) sampler.stop();
    // A sample still running (a ping on the pool) ends before the pool closes.
    await started;
  });
  app.get(
    '/health/ready',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], response: { 200: readinessResponse, 503: readinessResponse } },
    },
    async (_request, reply) => {
      await started;
      const now = Date.now();
      const database = samplers.database.current(now);
      const storage = samplers.storage.current(now);
      const dataDir = samplers.dataDir.current(now);
      const ready = !app.draining && database === 'ok' && dataDir === 'ok';
      const body: ReadinessResponse = {
        status: ready ? 'ready' : 'not-ready',
        draining: app.draining,
        checks: { database, storage, dataDir },
      };
      return reply.status(ready ? 200 : 503).send(body);
    },
  );
}
