import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { isAlive, startEmbeddedPostgres, userIdsFromPasswd } from './embedded';

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

describe('a server whose owner is shutting down', () => {
  it('is not shared: a start waits for that owner to exit, then runs its own', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ohgood-pg-retiring-'));
    chmodSync(dataDir, 0o755); // run as root, the server runs as user postgres and must reach its directory
    await startEmbeddedPostgres({ dataDir, durable: false });
    // Another live process stands in as the server's owner, one that has said it is shutting down and exits
    // a second later (as an instance does at the end of its drain).
    const owner = spawn('sleep', ['1'], { stdio: 'ignore' });
    writeFileSync(join(dataDir, 'postgres.owner'), String(owner.pid));
    writeFileSync(join(dataDir, 'postgres.retiring'), String(owner.pid));
    const server = await startEmbeddedPostgres({ dataDir, durable: false });
    try {
      expect(owner.exitCode ?? owner.signalCode).not.toBeNull();
      expect(server.owned).toBe(true);
      expect(await clientAddress(server.url('postgres'))).toBeNull();
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('isAlive', () => {
  it('counts a killed process its parent has not reaped (a zombie) as gone, and a running one as alive', async () => {
    if (!existsSync('/proc/self/stat')) return; // zombies are told apart through /proc (Linux)
    // sh starts a child, prints its pid and becomes `sleep`, which never reaps children. The child is killed
    // only once that exec has happened, so it stays a zombie however the two are scheduled.
    const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const child = Number((await once(parent.stdout, 'data'))[0].toString().trim());
      const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      await expect.poll(() => readFileSync(`/proc/${parent.pid}/cmdline`, 'utf8').split('\0')[0]).toBe('sleep');
      expect(isAlive(child)).toBe(true);
      process.kill(child, 'SIGKILL');
      await expect.poll(() => state(child)).toBe('Z');
      expect(isAlive(child)).toBe(false);
      expect(isAlive(parent.pid ?? -1)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe('a cluster that dies under its owner', () => {
  it('is restarted on the same port after kill -9 (crash recovery), and a shutdown from outside is left alone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ohgood-pg-heal-'));
    chmodSync(dataDir, 0o755); // run as root, the server runs as user postgres and must reach its directory
    const lines: string[] = [];
    const server = await startEmbeddedPostgres({ dataDir, durable: true, log: (line) => lines.push(line) });
    const postmaster = () => Number(readFileSync(join(dataDir, 'postgres/postmaster.pid'), 'utf8').split('\n')[0]);
    const query = async () => {
      const client = new pg.Client({ connectionString: server.url('postgres') });
      client.on('error', () => undefined);
      await client.connect();
      try {
        return (await client.query('select 1 as one')).rows[0].one as number;
      } finally {
        await client.end();
      }
    };
    try {
      expect(await query()).toBe(1);
      const first = postmaster();
      process.kill(first, 'SIGKILL');
      await expect.poll(() => server.restarts(), { timeout: 60_000 }).toBe(1);
      expect(postmaster()).not.toBe(first);
      expect(await query()).toBe(1);
      expect(lines[0]).toContain('exited unexpectedly: restarting it');

      // A clean shutdown someone else asked for (SIGINT, as pg_ctl stop -m fast sends) is not undone.
      const second = postmaster();
      process.kill(second, 'SIGINT');
      await expect.poll(() => isAlive(second), { timeout: 30_000 }).toBe(false);
      await expect.poll(() => lines.some((line) => line.includes('not restarting'))).toBe(true);
      expect(server.restarts()).toBe(1);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the postgres user as root', () => {
  it("reads the user's uid and primary gid from passwd lines, and nothing for a missing or malformed one", () => {
    const passwd = [
      'root:x:0:0:root:/root:/bin/bash',
      'postgres2:x:200:200::/home/postgres2:/bin/sh',
      'postgres:x:101:104:PostgreSQL administrator,,,:/var/lib/postgresql:/bin/bash',
      '',
    ].join('\n');
    expect(userIdsFromPasswd(passwd, 'postgres')).toEqual({ uid: 101, gid: 104 });
    expect(userIdsFromPasswd(passwd, 'postgres2')).toEqual({ uid: 200, gid: 200 });
    expect(userIdsFromPasswd(passwd, 'nobody')).toBeUndefined();
    expect(userIdsFromPasswd('postgres:x:abc:104::/:/bin/sh', 'postgres')).toBeUndefined();
    expect(userIdsFromPasswd('postgres:x', 'postgres')).toBeUndefined();
  });
});
