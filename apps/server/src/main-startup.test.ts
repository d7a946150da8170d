import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAlive } from './db/embedded';
import { freePort } from './lib/free-port';
import { DEMO_CUSTOMER } from './seed/demo-customer';
import { startDatabaseProxy } from './test/tcp-proxy';
import { createTestDatabaseUrl } from './test/test-database';

/* The real entry point, started as a process: a dependency that is down at start-up is named in its message. */
const serverRoot = join(import.meta.dirname, '..');
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ohgood-startup-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The entry point as a process (production mode, `env` over the defaults); its output is collected. */
function spawnMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  return { child, output };
}

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { child, output } = spawnMain(env);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve({ code, stderr: output.stderr }));
  });
}

it('names the media store when it is down at start-up with demo seeding, and exits 1', async () => {
  const target = await createTestDatabaseUrl();
  try {
    const s3Port = await freePort();
    const { code, stderr } = await start({
      DATABASE_URL: target.url,
      MIGRATION_DATABASE_URL: target.ownerUrl,
      PORT: String(await freePort()),
      JWT_SECRET: 'startup-test-secret-startup-test-secret',
      SEED_DEMO: 'true',
      RUN_JOBS: 'false',
      STORAGE: 's3',
      S3_BUCKET: 'ohgood-media',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: 'x',
      S3_SECRET_ACCESS_KEY: 'y',
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`media store (S3 bucket ohgood-media at http://127.0.0.1:${s3Port}) failed at start-up`);
    expect(stderr).toMatch(/ECONNREFUSED/);
  } finally {
    await target.drop();
  }
}, 60_000);

it('names the database and where it is (never its password) when it cannot be reached', async () => {
  const dbPort = await freePort();
  const { code, stderr } = await start({
    DATABASE_URL: `postgres://ohgood:secret-password@127.0.0.1:${dbPort}/ohgood`,
    PORT: String(await freePort()),
    JWT_SECRET: 'startup-test-secret-startup-test-secret',
    // No wait: the first refusal is final.
    DATABASE_WAIT_SECONDS: '0',
  });
  expect(code).toBe(1);
  expect(stderr).toContain(`database (127.0.0.1:${dbPort}/ohgood) failed at start-up: ECONNREFUSED`);
  expect(stderr).not.toContain('secret-password');
}, 60_000);

it('refuses a DATABASE_URL without a scheme before connecting, saying what it must look like', async () => {
  const { code, stderr } = await start({ DATABASE_URL: 'localhost:5432/ohgood', PORT: String(await freePort()) });
  expect(code).toBe(1);
  expect(stderr).toContain('DATABASE_URL: must be a full URL such as postgres://user:password@host:5432/ohgood');
}, 60_000);

it('spawns the embedded PostgreSQL before reading the whole configuration, and stops it when that is bad', async () => {
  const { code, stderr } = await start({ DATABASE_URL: '', PORT: 'not-a-port' });
  expect(code).toBe(1);
  expect(stderr).toContain('Invalid configuration');
  expect(stderr).toContain('PORT');
  // The server was spawned (the cluster exists) and leaves with the process that spawned it.
  const cluster = join(dataDir, 'postgres');
  expect(existsSync(join(cluster, 'PG_VERSION'))).toBe(true);
  const postmaster = () => {
    const file = join(cluster, 'postmaster.pid');
    if (!existsSync(file)) return null;
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return isAlive(pid) ? pid : null;
  };
  await expect.poll(postmaster, { timeout: 30_000 }).toBeNull();
}, 90_000);

it('waits for a database that is down at start-up, answering probes meanwhile, and starts once it is back', async () => {
  const target = await createTestDatabaseUrl();
  // Both roles' URLs through the proxy: the whole database is away, not one role's connection.
  const { proxy, via } = await startDatabaseProxy(target.url);
  const url = new URL(via(target.url));
  await proxy.cut();
  const port = await freePort();
  const { child, output } = spawnMain({
    DATABASE_URL: url.toString(),
    MIGRATION_DATABASE_URL: via(target.ownerUrl),
    PORT: String(port),
    JWT_SECRET: 'startup-test-secret-startup-test-secret',
    RUN_JOBS: 'false',
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const get = (path: string) =>
    fetch(`http://127.0.0.1:${port}${path}`).then(
      async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() }),
      () => ({ status: 0, retryAfter: null, body: null }),
    );
  try {
    // A log line per try, and probes answered while waiting: alive, not ready, everything else 503.
    await expect
      .poll(() => (output.stderr.match(/is not reachable \(ECONNREFUSED/g) ?? []).length, { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    expect(output.stderr).toContain(`database (127.0.0.1:${proxy.port}${url.pathname}) is not reachable`);
    expect(output.stderr).not.toContain(url.password);
    await expect.poll(async () => (await get('/health')).status, { timeout: 30_000 }).toBe(200);
    expect((await get('/health/ready')).status).toBe(503);
    const api = await get('/api/public/shorts/feeds');
    expect(api).toEqual({
      status: 503,
      retryAfter: '5',
      body: { success: false, code: 'SERVICE_UNAVAILABLE', message: '잠시 후 다시 시도해주세요.' },
    });
    expect(exited).toBe(false);

    await proxy.restore();
    await expect.poll(async () => (await get('/health/ready')).status, { timeout: 60_000 }).toBe(200);
    expect((await get('/api/public/shorts/feeds')).status).toBe(200);
    expect(output.stderr).toMatch(/is reachable after \d+ tries; starting/);
  } finally {
    child.kill('SIGTERM');
    if (!exited) await once(child, 'exit');
    await proxy.close();
    await target.drop();
  }
}, 120_000);

it('exits with a clear message once the wait for the database runs out', async () => {
  const dbPort = await freePort();
  const began = Date.now();
  const { code, stderr } = await start({
    DATABASE_URL: `postgres://ohgood:secret-password@127.0.0.1:${dbPort}/ohgood`,
    PORT: String(await freePort()),
    JWT_SECRET: 'startup-test-secret-startup-test-secret',
    DATABASE_WAIT_SECONDS: '3',
  });
  expect(code).toBe(1);
  expect(Date.now() - began).toBeGreaterThanOrEqual(1_000);
  expect(stderr).toMatch(/is not reachable \(ECONNREFUSED.*try 1;/);
  expect(stderr).toContain(`database (127.0.0.1:${dbPort}/ohgood) failed at start-up: gave up waiting`);
  expect(stderr).not.toContain('secret-password');
}, 60_000);

it('starts on a new data directory: the seed and the first reads wait for the migrations beside the build', async () => {
  const freshDir = mkdtempSync(join(tmpdir(), 'ohgood-fresh-'));
  const port = await freePort();
  const { child, output } = spawnMain({
    DATA_DIR: freshDir,
    DATABASE_URL: '',
    PORT: String(port),
    LOG_LEVEL: 'info',
    SEED_DEMO: 'true',
    RUN_JOBS: 'false',
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  try {
    await expect
      .poll(() => exited || output.stdout.includes('OhGood Pay listening'), { timeout: 150_000, interval: 100 })
      .toBe(true);
    expect(exited).toBe(false);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    // The seeded demo customer signs in: its rows were written after the tables were made.
    const login = await fetch(`http://127.0.0.1:${port}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emailId: DEMO_CUSTOMER.email, pwd: DEMO_CUSTOMER.password }),
    });
    expect(login.status).toBe(200);
  } finally {
    child.kill('SIGTERM');
    if (!exited) await once(child, 'exit');
    rmSync(freshDir, { recursive: true, force: true });
  }
}, 180_000);
