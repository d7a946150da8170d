import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app';
import { connectDatabase, type Database } from '../db/client';
import { ManualClock } from '../lib/clock';
import { testConfig } from '../lib/config';
import { bearer } from '../test/harness';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy';
import { createTestDatabaseUrl } from '../test/test-database';

/*
 * The app on a real PostgreSQL reached through a TCP hop: cutting the hop is what a database restart or a
 * network cut looks like to the pool (open connections reset, new ones refused).
 */
let proxy: TcpProxy;
let database: Database;
let drop: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  const target = await createTestDatabaseUrl();
  drop = target.drop;
  const url = new URL(target.url);
  // The embedded PostgreSQL is reached on its Unix socket (`?host=<dir>`), an external one over TCP.
  const socketDir = url.searchParams.get('host');
  proxy = await startTcpProxy(
    socketDir ? { path: `${socketDir}/.s.PGSQL.${url.port}` } : { host: url.hostname, port: Number(url.port) },
  );
  url.searchParams.delete('host');
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  database = await connectDatabase(url.toString(), { kind: target.kind, migrate: false });
  app = await buildApp({
    config: testConfig(),
    database,
    clock: new ManualClock('2026-11-22T03:00:00Z'),
    jwtSecret: 'test-secret-test-secret-test-secret-1234',
  });
  await app.ready();
});
afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await app?.close();
  await database?.close();
  await proxy?.close();
  await drop?.();
});

async function signUp() {
  const body = {
    name: '테스트',
    emailId: `outage-${Date.now()}@example.com`,
    pwd: 'password1!',
    birth: '1990-01-01',
    account: '12345678901',
    accountName: '국민',
  };
  expect((await app.inject({ method: 'POST', url: '/api/public/register', payload: body })).statusCode).toBe(200);
  const login = await app.inject({ method: 'POST', url: '/auth', payload: { emailId: body.emailId, pwd: body.pwd } });
  return login.json().accessToken as string;
}

it('answers 503 SERVICE_UNAVAILABLE with Retry-After while the database is away, and serves again once it is back', async () => {
  const token = await signUp();
  const reads = [
    { method: 'GET' as const, url: '/api/mypage', headers: bearer(token) },
    { method: 'GET' as const, url: '/api/public/shorts/feeds?page=1' },
  ];
  for (const read of reads) expect((await app.inject(read)).statusCode).toBe(200);

  await proxy.cut();
  const during = [
    ...reads,
    { method: 'POST' as const, url: '/auth', payload: { emailId: 'nobody@example.com', pwd: 'password1!' } },
    { method: 'POST' as const, url: '/api/checkin/roulette', headers: bearer(token) },
  ];
  for (const request of during) {
    const res = await app.inject(request);
    expect(res.statusCode, request.url).toBe(503);
    expect(res.headers['retry-after'], request.url).toBe('5');
    expect(res.json(), request.url).toEqual({
      success: false,
      code: 'SERVICE_UNAVAILABLE',
      message: '잠시 후 다시 시도해주세요.',
    });
  }

  await proxy.restore();
  for (const read of reads) expect((await app.inject(read)).statusCode).toBe(200);
});
