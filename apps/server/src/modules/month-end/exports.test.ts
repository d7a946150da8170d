import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { STAFF_ROLES, type StaffRole } from '@ohgood/contract/endpoint';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import { ensureDemoMerchants } from '../../seed/demo-merchants';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { kstAt } from '../../test/notice-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { refundFromConsole, signedInOperator } from '../../test/staff-fixture';
import { CONCURRENT_EXPORTS } from './stream-csv';

/*
 * docs/rules/operations.md#O15 on the real database and a real socket: range exports by KST days, personal data
 * masked for every role that may export, formula cells defused, an empty range giving the header alone, a
 * 100,000-row range streamed within a memory bound, and every download audited with its row count — an
 * aborted one as aborted.
 */

let h: Harness;
let base: string;
const tokens = {} as Record<StaffRole, Record<string, string>>;
let customerId: number;
let emailId: string;

const BULK_ROWS = 100_000;
/** The bulk rows' month: far from the other tests' days, so each range holds only what its test made. */
const BULK_FROM = '2025-01-01';
const BULK_TO = '2025-01-31';

/** A download through the real server: status, headers and the body as text. */
async function download(path: string, headers: Record<string, string>) {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The records of a CSV file after its BOM (the test's files hold no quoted line breaks). */
const records = (bytes: Buffer) => bytes.toString('utf8').slice(1).split('\r\n').slice(0, -1);

async function auditRows(kind: string) {
  return h.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'export'), eq(auditLog.targetId, kind)))
    .orderBy(desc(auditLog.id));
}

beforeAll(async () => {
  h = await createHarness({ now: kstAt('2026-11-20').toISOString() });
  for (const role of STAFF_ROLES) tokens[role] = (await signedInOperator(h, role)).auth;
  const customer = await h.signUp({ name: '김오굿', account: '110-123-456789', accountName: '신한' });
  customerId = customer.customerId;
  emailId = customer.emailId;
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => h.close());

describe('range exports (O15)', () => {
  it('holds exactly the KST days asked, as Excel reads it: BOM, CRLF, Hangul intact, formulas defused', async () => {
    const db = h.database.db;
    // The first and the last instant of the range, and one either side.
    await insertPurchase(db, { customerId, totalPrice: 1000, at: kstAt('2026-11-02', 23, 59), requestName: '전날' });
    await insertPurchase(db, { customerId, totalPrice: 2000, at: kstAt('2026-11-03', 0, 0), requestName: '첫날' });
    await insertPurchase(db, {
      customerId,
      totalPrice: 3000,
      at: new Date(kstAt('2026-11-05', 0, 0).getTime() - 1),
      requestName: '=HYPERLINK("http://evil.example","영수증")',
    });
    await insertPurchase(db, { customerId, totalPrice: 4000, at: kstAt('2026-11-05', 0, 0), requestName: '다음날' });

    const file = await download('/api/ops/exports/payments.csv?from=2026-11-03&to=2026-11-04', tokens.SUPPORT);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toContain("filename*=UTF-8''payments_2026-11-03_2026-11-04.csv");
    expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = records(file.bytes);
    expect(lines[0]).toBe(
      '결제 번호,결제 일시,고객 번호,고객명,가맹점,상품명,결제 금액,사용 포인트,청구 금액,적립 포인트,청구 월,상태',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^\d+,2026-11-03 00:00:00,\d+,김\*굿,GS25,첫날,2000,0,2000,0,2026-11,UNPAID$/);
    expect(lines[2]).toContain(',2026-11-04 23:59:59,');
    expect(lines[2]).toContain(',"\'=HYPERLINK(""http://evil.example"",""영수증"")",');
  });

  it('masks personal data for every role that may export, as the console shows it; other roles are refused', async () => {
    const db = h.database.db;
    // Repaid today (the clock stays put: console sessions follow it).
    const line = await insertPurchase(db, { customerId, totalPrice: 5000, at: kstAt('2026-11-10') });
    const login = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'password1!' } });
    const repaid = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(login.json().accessToken),
      payload: [line, ...(await unpaidBefore(line))],
    });
    expect(repaid.statusCode, repaid.body).toBe(200);
    for (const role of ['SUPPORT', 'RISK', 'ADMIN'] as const) {
      for (const kind of ['payments', 'repayments']) {
        const file = await download(`/api/ops/exports/${kind}.csv?from=2026-11-10&to=2026-11-20`, tokens[role]);
        expect(file.status, `${role} ${kind}`).toBe(200);
        const body = file.bytes.toString('utf8');
        expect(body, `${role} ${kind}`).toContain('김*굿');
        expect(body).not.toContain('김오굿');
        expect(body).not.toContain('123456789');
        expect(body).not.toContain('@example.com');
        if (kind === 'repayments') expect(body).toContain(',신한,****6789');
      }
    }
    expect(
      (await download('/api/ops/exports/payments.csv?from=2026-11-10&to=2026-11-10', tokens.MODERATOR)).status,
    ).toBe(403);
    // The audit log and the month-end report are the books: risk and admin only.
    expect(
      (await download('/api/ops/exports/audit-log.csv?from=2026-11-10&to=2026-11-10', tokens.SUPPORT)).status,
    ).toBe(403);
    expect((await download('/api/ops/exports/month-end.csv?month=2026-10', tokens.SUPPORT)).status).toBe(403);
  });

  it('gives the header alone for a range with no rows, and audits it with 0 rows', async () => {
    for (const kind of ['payments', 'refunds', 'repayments', 'autopay-attempts', 'audit-log']) {
      const file = await download(`/api/ops/exports/${kind}.csv?from=2020-02-01&to=2020-02-29`, tokens.ADMIN);
      expect(file.status, kind).toBe(200);
      expect(records(file.bytes), kind).toHaveLength(1);
      expect(file.bytes.toString('utf8').endsWith('\r\n')).toBe(true);
      // Written once the last byte left, so just after the client has the file.
      await vi.waitFor(async () => {
        const [audit] = await auditRows(kind);
        expect(audit, kind).toMatchObject({
          action: 'export.download',
          role: 'ADMIN',
          after: { from: '2020-02-01', to: '2020-02-29', rows: 0 },
        });
      });
    }
  });

  it('exports refunds with what left the bill and what is owed back', async () => {
    const line = await insertPurchase(h.database.db, { customerId, totalPrice: 7000, at: kstAt('2026-11-12') });
    await refundFromConsole(h, line);
    const file = await download('/api/ops/exports/refunds.csv?from=2026-11-20&to=2026-11-20', tokens.RISK);
    const lines = records(file.bytes);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(`^${line},2026-11-20 12:00:00,${customerId},김\\*굿,GS25,테스트 상품,7000,0,7000,0$`),
    );
  });

  it('refuses a range backwards or longer than a year, before any file', async () => {
    expect((await download('/api/ops/exports/payments.csv?from=2026-11-05&to=2026-11-01', tokens.ADMIN)).status).toBe(
      400,
    );
    expect((await download('/api/ops/exports/payments.csv?from=2025-01-01&to=2026-01-02', tokens.ADMIN)).status).toBe(
      400,
    );
    expect((await download('/api/ops/exports/payments.csv?from=2026-02-30&to=2026-03-01', tokens.ADMIN)).status).toBe(
      400,
    );
  });
});

/** Lines of the customer's older statements still unpaid (a repayment must take them too, oldest first). */
async function unpaidBefore(line: number): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    h.database.db,
    sql`select id from purchases where customer_id = ${customerId} and status = 'UNPAID' and id <> ${line}`,
  );
  return rows.map((row) => row.id);
}

describe('a 100,000-row export (O15)', () => {
  beforeAll(async () => {
    const merchantId = (await ensureDemoMerchants(h.database.db)).get('GS25') ?? 0;
    const start = kstAt(BULK_FROM, 0, 0);
    await h.database.db.execute(sql`insert into payment_requests
        (merchant_id, order_id, request_name, total_price, pin_code, qr_token, status, expires_at, paid_at, created_at)
      select ${merchantId}, 'bulk-' || g, '대량 상품 ' || g, 1000 + g % 9000, lpad((g % 1000000)::text, 6, '0'),
        'bulk-qr-' || g, 'PAID', t, t, t
      from generate_series(1, ${BULK_ROWS}) g, lateral (select ${start}::timestamptz + g * interval '20 seconds' as t) at`);
    await h.database.db.execute(sql`insert into purchases
        (customer_id, merchant_id, request_id, request_name, total_price, point_used, price, point_earned,
         statement_month, status, created_at)
      select ${customerId}, merchant_id, id, request_name, total_price, 0, total_price, 0, '2025-01', 'PAID', created_at
      from payment_requests where order_id like 'bulk-%'`);
  }, 120_000);

  it('streams within a memory bound, and audits the rows it wrote', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage();
    let peakHeap = 0;
    let peakRss = 0;
    let bytes = 0;
    let lineEnds = 0;
    let chunks = 0;
    const res = await get(`/api/ops/exports/payments.csv?from=${BULK_FROM}&to=${BULK_TO}`, tokens.ADMIN);
    expect(res.statusCode).toBe(200);
    await new Promise<void>((resolve, reject) => {
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lineEnds += 1;
        chunks += 1;
        // What is still alive, not garbage waiting to be collected: measured after a collection.
        if (chunks % 25 === 0) {
          gc();
          const now = process.memoryUsage();
          peakHeap = Math.max(peakHeap, now.heapUsed - baseline.heapUsed);
          peakRss = Math.max(peakRss, now.rss - baseline.rss);
        }
      });
      res.on('end', resolve);
      res.on('error', reject);
    });
    expect(lineEnds).toBe(BULK_ROWS + 1);
    console.info(
      `export of ${BULK_ROWS} rows: ${(bytes / 2 ** 20).toFixed(1)} MiB, peak live heap +${(peakHeap / 2 ** 20).toFixed(1)} MiB, ` +
        `peak RSS +${(peakRss / 2 ** 20).toFixed(1)} MiB`,
    );
    // The file is ~9 MiB; reading the range whole would hold 100,000 row objects (≥ 40 MiB) and the text.
    expect(peakHeap).toBeLessThan(16 * 2 ** 20);
    expect(peakRss).toBeLessThan(64 * 2 ** 20);
    await vi.waitFor(async () => {
      const [audit] = await auditRows('payments');
      expect(audit).toMatchObject({
        action: 'export.download',
        after: { from: BULK_FROM, to: BULK_TO, rows: BULK_ROWS },
      });
    });
  }, 120_000);

  it('records an aborted download as aborted, and holds at most two downloads at once', async () => {
    const path = `/api/ops/exports/payments.csv?from=${BULK_FROM}&to=${BULK_TO}`;
    // Downloads nobody reads: the server's writes wait on the socket, and each holds its place.
    const stalled = await Promise.all(Array.from({ length: CONCURRENT_EXPORTS }, () => get(path, tokens.RISK)));
    for (const res of stalled) expect(res.statusCode).toBe(200);
    const third = await download(path, tokens.RISK);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.bytes.toString()).code).toBe('RATE_LIMITED');
    for (const res of stalled) res.destroy();
    await vi.waitFor(async () => {
      const aborted = (await auditRows('payments')).filter((row) => row.action === 'export.aborted');
      expect(aborted).toHaveLength(CONCURRENT_EXPORTS);
      for (const row of aborted) {
        const rows = (row.after as { rows: number }).rows;
        expect(rows).toBeGreaterThan(0);
        expect(rows).toBeLessThan(BULK_ROWS);
      }
    });
    // Their places are free again.
    const after = await get(`/api/ops/exports/payments.csv?from=2020-02-01&to=2020-02-01`, tokens.RISK);
    expect(after.statusCode).toBe(200);
    after.resume();
  }, 120_000);
});

describe('a database failing mid-file (O15)', () => {
  it('cuts the file short and audits it as failed', async () => {
    const res = await get(`/api/ops/exports/payments.csv?from=${BULK_FROM}&to=${BULK_TO}`, tokens.ADMIN);
    expect(res.statusCode).toBe(200);
    // The download's connection, waiting between fetches while nobody reads: the database ends it.
    await vi.waitFor(async () => {
      const ended = await rowsOf<{ ended: boolean }>(
        h.database.db,
        sql`select pg_terminate_backend(pid) as ended from pg_stat_activity
          where query like 'fetch forward%' and pid <> pg_backend_pid()`,
      );
      expect(ended.map((row) => row.ended)).toEqual([true]);
    });
    const outcome = await new Promise<{ bytes: number; complete: boolean }>((resolve) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ bytes, complete: res.complete }));
      res.on('error', () => resolve({ bytes, complete: false }));
      res.on('close', () => resolve({ bytes, complete: res.complete }));
    });
    expect(outcome.complete).toBe(false);
    await vi.waitFor(async () => {
      const [audit] = await auditRows('payments');
      expect(audit).toMatchObject({ action: 'export.failed', after: { from: BULK_FROM, to: BULK_TO } });
      expect((audit?.after as { rows?: number } | undefined)?.rows).toBeLessThan(BULK_ROWS);
    });
  }, 120_000);
});

/** A GET through node:http, answered once the headers arrive; the body is read (or not) by the caller. */
function get(path: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, resolve);
    req.on('error', reject);
    req.end();
  });
}
