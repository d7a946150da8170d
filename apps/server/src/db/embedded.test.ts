import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded';

/** Where this connection came from: null over a Unix socket, the client's address over TCP. */
async function clientAddress(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ addr: string | null }>('select inet_client_addr()::text as addr');
    return rows[0]?.addr ?? null;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL connections', () => {
  it('the app reaches the embedded server over its Unix socket (this run’s server, started like the app’s)', async () => {
    const { adminUrl, kind } = inject('testDatabase');
    if (kind !== 'embedded') return; // TEST_DATABASE_URL names an external server: nothing of ours to check
    expect(new URL(adminUrl).searchParams.get('host')).toMatch(/\/postgres$/);
    expect(await clientAddress(adminUrl)).toBeNull();
  });

  it('falls back to TCP on 127.0.0.1 when the socket path would not fit', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ohgood-pg-deep-'));
    chmodSync(root, 0o755); // run as root, the server runs as user postgres and must reach its directory
    // Deep enough that <dir>/postgres/.s.PGSQL.<port> exceeds the 107 bytes a socket path may have.
    const dataDir = join(root, 'd'.repeat(100 - root.length), 'data');
    mkdirSync(dataDir, { recursive: true });
    const server = await startEmbeddedPostgres({ dataDir, durable: false });
    try {
      const url = server.url('postgres');
      expect(new URL(url).searchParams.get('host')).toBeNull();
      expect(await clientAddress(url)).toBe('127.0.0.1/32');
    } finally {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
