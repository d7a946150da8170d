import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../db/client';
import { paymentRequests, purchases } from '../db/schema';
import { freePort } from '../lib/free-port';
import { createHarness } from '../test/harness';
import { createMerchant } from '../test/merchant-fixture';
import { createTestDatabaseUrl } from '../test/test-database';

/*
 * Graceful shutdown of a real server process (`src/main.ts`) on a real PostgreSQL database: SIGTERM in the
 * middle of a burst of payments must leave no request unanswered and no payment half done.
 */
const BURST = 40;
const serverRoot = resolve(import.meta.dirname, '../..');

let target: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
let database: Database;
let dataDir: string;

beforeAll(async () => {
  target = await createTestDatabaseUrl();
  database = await connectDatabase(target.url, { kind: target.kind, migrate: false });
  dataDir = mkdtempSync(join(tmpdir(), 'ohgood-shutdown-'));
});
afterAll(async () => {
  await database?.close();
  await target?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface LogLine {
  msg?: string;
  req?: { url?: string };
  res?: { statusCode?: number };
  reqId?: string;
}

/** The server's pino JSON lines, in order, with a way to wait for one (an event, not a sleep). */
function follow(child: ChildProcess) {
  const lines: LogLine[] = [];
  const waiters: Array<{ test: () => boolean; done: () => void }> = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      return; // not a log line
    }
    for (const waiter of [...waiters]) {
      if (waiter.test()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done();
      }
    }
  });
  return {
    lines,
    until(test: () => boolean): Promise<void> {
      if (test()) return Promise.resolve();
      return new Promise((done) => waiters.push({ test, done }));
    },
  };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

it('answers every payment of a burst cut by SIGTERM, ends SSE streams with a reconnect event and exits 0', async () => {
  const merchant = await createMerchant(database.db);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: target.url,
      MIGRATION_DATABASE_URL: target.ownerUrl,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_SECRET: 'shutdown-test-secret-shutdown-test-secret',
      SEED_DEMO: 'false',
      RUN_JOBS: 'false',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_SECONDS: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = exitOf(child);
  try {
    const log = follow(child);
    await log.until(() => log.lines.some((l) => l.msg?.startsWith('OhGood Pay listening')));

    const json = { 'content-type': 'application/json' };
    const customer = { emailId: `shutdown-${Date.now()}@example.com`, pwd: 'password1!' };
    const registered = await fetch(`${base}/api/public/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        ...customer,
        name: '종료',
        birth: '1990-01-01',
        account: '12345678901',
        accountName: '국민',
      }),
    });
    expect(registered.status).toBe(200);
    const login = await fetch(`${base}/auth`, { method: 'POST', headers: json, body: JSON.stringify(customer) });
    const auth = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };

    const create = async (n: number) => {
      const res = await fetch(`${base}/api/merchant/payment-requests`, {
        method: 'POST',
        headers: { ...json, ...merchant.headers },
        body: JSON.stringify({ orderId: `shutdown-${n}`, requestName: '아메리카노', totalPrice: 1_000 + n }),
      });
      return (await res.json()) as { requestId: string; pinCode: string };
    };
    const requests = [];
    for (let n = 0; n < BURST; n++) {
      const request = await create(n);
      const validated = await fetch(`${base}/api/payment/validate`, {
        method: 'POST',
        headers: { ...json, ...auth },
        body: JSON.stringify({ codeType: 'pincode', value: request.pinCode }),
      });
      expect(validated.status).toBe(200);
      requests.push(request);
    }

    // A checkout screen following a request that stays unpaid.
    const watched = await create(BURST);
    const stream = await fetch(`${base}/api/merchant/payment-requests/${watched.requestId}/events`, {
      headers: merchant.headers,
    });
    const streamText = stream.text();

    const isFinal = (l: LogLine) => l.req?.url?.startsWith('/api/payment/final') === true;
    const burst = requests.map((r) =>
      fetch(`${base}/api/payment/final?point=0&requestId=${r.requestId}`, { method: 'POST', headers: auth }).then(
        async (res) => ({ status: res.status, body: (await res.json()) as { success?: boolean; error?: string } }),
        (error: unknown) => ({ status: 0, body: { success: false, error: String(error) } }),
      ),
    );
    // Every payment has reached the server (logged as incoming); then the orchestrator's SIGTERM.
    await log.until(() => log.lines.filter((l) => l.msg === 'incoming request' && isFinal(l)).length === BURST);
    const incomingIds = new Set(
      log.lines.filter((l) => l.msg === 'incoming request' && isFinal(l)).map((l) => l.reqId),
    );
    child.kill('SIGTERM');

    const answers = await Promise.all(burst);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(answers.every((a) => a.body.success === true)).toBe(true);
    expect(await exited).toBe(0);

    // The burst really was cut: some payments finished only after the shutdown began.
    const shutdownAt = log.lines.findIndex((l) => l.msg === 'shutting down: draining');
    expect(shutdownAt).toBeGreaterThan(0);
    const finishedAfter = log.lines
      .slice(shutdownAt)
      .filter((l) => l.msg === 'request completed' && incomingIds.has(l.reqId));
    expect(finishedAfter.length).toBeGreaterThan(0);
    // …and all of them before the pool closed.
    const completeAt = log.lines.findIndex((l) => l.msg === 'shutdown complete');
    const lastBurstAt = log.lines.findLastIndex((l) => l.msg === 'request completed' && incomingIds.has(l.reqId));
    expect(completeAt).toBeGreaterThan(lastBurstAt);

    // The SSE stream ended with a final event that tells the client to reconnect elsewhere.
    const events = (await streamText).trim().split('\n\n');
    expect(events.at(-1)).toBe(
      `event: reconnect\nretry: 1000\ndata: ${JSON.stringify({ requestId: watched.requestId, status: 'ACTIVE' })}`,
    );

    // Every answered payment is in the database, whole.
    const ids = requests.map((r) => r.requestId);
    const paid = await database.db
      .select({ id: paymentRequests.id })
      .from(paymentRequests)
      .where(and(inArray(paymentRequests.id, ids), eq(paymentRequests.status, 'PAID')));
    expect(paid).toHaveLength(BURST);
    const lines = await database.db.select().from(purchases).where(inArray(purchases.requestId, ids));
    expect(lines).toHaveLength(BURST);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  }
}, 120_000);

it('fails readiness while draining and closes connections after their response', async () => {
  const h = await createHarness();
  try {
    expect((await h.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
    h.app.draining = true;
    const res = await h.app.inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'not-ready',
      draining: true,
      checks: { database: 'ok', storage: 'ok', dataDir: 'ok' },
    });
    expect(res.headers.connection).toBe('close');
    // Liveness stays up until the process exits.
    expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  } finally {
    await h.close();
  }
});
