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
 * Readiness (`/health/ready`), as opposed to liveness (`/health`): can this instance serve requests now?
 * It checks the database and the media storage and reports draining during a graceful shutdown.
 */
export function registerReadiness(app: FastifyInstance, deps: { db: Db; storage: MediaStorage }): void {
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
      const [database, storage] = await Promise.all([
        outcome(() => ping(deps.db)),
        outcome(() => deps.storage.check()),
      ]);
      const ready = !app.draining && database === 'ok' && storage === 'ok';
      const body: ReadinessResponse = {
        status: ready ? 'ready' : 'not-ready',
        draining: app.draining,
        checks: { database, storage },
      };
      return reply.status(ready ? 200 : 503).send(body);
    },
  );
}
