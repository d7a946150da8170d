import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAlive } from './db/embedded';
import { freePort } from './lib/free-port';
import { createTestDatabaseUrl } from './test/test-database';

/* The real entry point, started as a process: a dependency that is down at start-up is named in its message. */
const serverRoot = join(import.meta.dirname, '..');
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ohgood-startup-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverRoot,
      env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

it('names the media store when it is down at start-up with demo seeding, and exits 1', async () => {
  const target = await createTestDatabaseUrl();
  try {
    const s3Port = await freePort();
    const { code, stderr } = await start({
      DATABASE_URL: target.url,
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
