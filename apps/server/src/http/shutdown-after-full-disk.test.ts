import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import webpush from 'web-push';
import { freePort } from '../lib/free-port';
import { type FullDisk, fullDisk } from '../test/full-disk';
import { createTestDatabaseUrl } from '../test/test-database';

/*
 * The real entry point as a process, with DATA_DIR (where uploads are spooled) on a full file system: an
 * upload fails with ENOSPC, and a SIGTERM afterwards must still shut the server down in seconds with 0,
 * not wait out the shutdown timeout for something the failed upload left open.
 */
const serverRoot = join(import.meta.dirname, '../..');
let disk: FullDisk;
let mediaDir: string;
let target: Awaited<ReturnType<typeof createTestDatabaseUrl>>;

beforeAll(async () => {
  disk = await fullDisk();
  mediaDir = mkdtempSync(join(tmpdir(), 'ohgood-full-media-'));
  target = await createTestDatabaseUrl();
});
afterAll(async () => {
  await target?.drop();
  await disk?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

function startServer(port: number): { child: ChildProcess; listening: Promise<void>; exited: Promise<number | null> } {
  const vapid = webpush.generateVAPIDKeys();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: target.url,
      MIGRATION_DATABASE_URL: target.ownerUrl,
      DATA_DIR: disk.dir,
      MEDIA_DIR: mediaDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_SECRET: 'full-disk-test-secret-full-disk-test-secret',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      RUN_JOBS: 'false',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_SECONDS: '1',
      SHUTDOWN_TIMEOUT_SECONDS: '30',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listening = new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, listening, exited };
}

async function json(port: number, path: string, body: object, token?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** A multipart upload of `bytes` of video, streamed over a kept-alive connection as a browser sends it. */
function upload(port: number, token: string, bytes: number): Promise<number> {
  const boundary = `----ohgood${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n가득 찬 디스크\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\n업로드 실패\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/upload',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes + tail.length,
          connection: 'keep-alive',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.write(head);
    const chunk = randomBytes(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const size = Math.min(chunk.length, bytes - sent);
        sent += size;
        if (!req.write(size === chunk.length ? chunk : chunk.subarray(0, size))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

it('shuts down in seconds with exit code 0 after an upload failed on a full disk', async () => {
  const port = await freePort();
  const server = startServer(port);
  try {
    await server.listening;
    const emailId = `full-disk-${Date.now()}@example.com`;
    const account = {
      name: '테스트',
      emailId,
      pwd: 'password1!',
      birth: '1990-01-01',
      account: '12345678901',
      accountName: '국민',
    };
    expect(await json(port, '/api/public/register', account)).toMatchObject({ success: true });
    const { accessToken } = await json(port, '/auth', { emailId, pwd: account.pwd });

    // Far more than the 256 KiB file system holds: the spool write fails with ENOSPC.
    const status = await upload(port, String(accessToken), 8 * 1024 * 1024);
    expect(status).toBe(503);

    const started = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Drain (1 s) and closing; far from the 30 s shutdown timeout.
    expect(performance.now() - started).toBeLessThan(20_000);
  } finally {
    server.child.kill('SIGKILL');
  }
}, 120_000);
