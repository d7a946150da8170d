// The bench's durable-write reference (ADR 0244): a bare route that commits one row per request, on the
// server's database, with the server's pool size and connection path. A payment is bound by its durable
// commit, not by the CPU a bare route measures; its ratio to this route is what the disk leaves it. The
// route lives in the bench's process, like the bare Fastify route: no production route exists for it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { embeddedUrl } from './embedded-url.mjs';

/** The server's pool size (`connectDatabase` in apps/server/src/db/client.ts). */
const SERVER_POOL_SIZE = 10;
/** Made by the bench for the run and dropped after it; the fixture's snapshot never holds it. */
const TABLE = 'bench_durable_writes';

/**
 * How the server reaches the embedded PostgreSQL under `dataDir`: its Unix socket when there is one (ADR
 * 0107), else TCP on 127.0.0.1.
 */
function connectionOf(dataDir) {
  const url = new URL(embeddedUrl(dataDir));
  const cluster = join(dataDir, 'postgres');
  const socket = existsSync(join(cluster, `.s.PGSQL.${url.port}`));
  return {
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
    host: socket ? cluster : url.hostname,
    port: Number(url.port),
  };
}

/**
 * Starts the reference on the running server's embedded database; `url` takes a POST per durable write. Each
 * is one autocommitted `INSERT`: one round trip and one WAL flush, as the cluster commits (synchronous_commit
 * on, as for every money write).
 */
export async function startDurableWrite(dataDir) {
  const pool = new pg.Pool({ ...connectionOf(dataDir), max: SERVER_POOL_SIZE });
  await pool.query(
    `create table if not exists ${TABLE} (id bigserial primary key, at timestamptz not null default now())`,
  );
  const app = Fastify();
  app.post('/durable-write', async () => {
    await pool.query({ name: 'bench-durable-write', text: `insert into ${TABLE} default values` });
    return { ok: true };
  });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `${origin}/durable-write`,
    async close() {
      await app.close();
      await pool.query(`drop table if exists ${TABLE}`);
      await pool.end();
    },
  };
}
