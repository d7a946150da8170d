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

/** Writes, syncs and removes a probe file: uploads and transcodes need scratch space under DATA_DIR. */
async function writeProbe(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `.ready-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(file, Buffer.alloc(PROBE_BYTES), { flush: true });
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * Readiness (`/health/ready`), as opposed to liveness (`/health`): can this instance serve requests now?
 * It requires the database and a writable DATA_DIR; the media store is checked and reported, but a media
 * outage only holds uploads back (they answer 503 with a clear message), so it never takes the instance
 * out of the balancer: payments and feeds keep working. Draining is reported during a graceful shutdown.
 */
export function registerReadiness(
  app: FastifyInstance,
  deps: { db: Db; storage: MediaStorage; dataDir: string },
): void {
  app.decorate('draining', false);
  // Responses written while draining close their connection, so no keep-alive socket outlives the server.
  app.addHook('onSend', async (_request, reply) => {
    if (app.draining) reply.header('connection', 'close');
  });
  app.get(
    '/health/ready',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], response: { 200: readinessResponse, 503: readinessResponse } },
    },
    async (_request, reply) => {
      const [database, storage, dataDir] = await Promise.all([
        outcome(() => ping(deps.db)),
        outcome(() => deps.storage.check()),
        outcome(() => writeProbe(deps.dataDir)),
      ]);
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
