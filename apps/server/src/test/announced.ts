import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import type { ChangeEvent } from '../lib/cache-home';

/** A viewer that does not exist: hearing it drops nothing anyone reads. */
const SENTINEL = 2_000_000_001;

const isSentinel = (e: ChangeEvent | null) => e?.kind === 'viewers' && e.ids !== 'all' && e.ids[0] === SENTINEL;

function heard(app: FastifyInstance): Promise<void> {
  return new Promise((resolve) => {
    const stop = app.caches.home.onDrop((event) => {
      if (!isSentinel(event)) return;
      stop();
      resolve();
    });
  });
}

/**
 * Resolves once every app has heard every change committed before this call: changes reach each instance
 * in commit order, so a sentinel announced now arrives after all of them.
 */
export async function heardEverythingAnnounced(database: Database, apps: FastifyInstance[]): Promise<void> {
  const all = Promise.all(apps.map(heard));
  await database.pool.query(`select pg_notify('viewer_changed', '${SENTINEL}')`);
  await all;
}
