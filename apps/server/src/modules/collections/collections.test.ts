import { gradeByName } from '@ohgood/contract/grades';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  auditLog,
  autopayAttempts,
  customers,
  repayments,
  sandboxBankDebits,
  staff,
  statements,
} from '../../db/schema';
import { runJob } from '../../jobs/runner';
import { dyingAfterDebit, verifyAutopay } from '../../test/autopay-fixture';
import { createHarness, type Harness } from '../../test/harness';
import { kstAt, noticeKinds } from '../../test/notice-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { signedInOperator } from '../../test/staff-fixture';
import { runAutopay } from '../autopay/autopay-job';
import { readSetting } from '../autopay/standing';
import { createSandboxBank, sandboxAccount, setSandboxAccount } from '../bank/sandbox-bank';
import type { StaffPrincipal } from '../ops/staff-principal';
import { createCollectionsService } from './service';

/** Collections on the real database (docs/rules/operations.md#O18–O21). */

let h: Harness;
let risk: Record<string, string>;
beforeEach(async () => {
  h = await createHarness({ now: kstAt('2026-11-05').toISOString() });
});

/** Moves the clock and signs a risk operator in then (a console session ends after 30 idle minutes). */
async function at(instant: Date) {
  h.clock.set(instant);
  risk = (await signedInOperator(h, 'RISK')).auth;
}
afterEach(() => h.close());

const post = (url: string, payload: object, headers = risk) => h.app.inject({ method: 'POST', url, headers, payload });

let accounts = 0;
/** A customer with autopay in force whose 12-15 debit of 30,000원 the bank refused (balance 10,000원). */
async function failedCustomer() {
  h.clock.set(kstAt('2026-11-05'));
  const account = `1112223334${accounts++}`;
  const customer = await h.signUp({ accountName: '신한', account });
  await verifyAutopay(h, customer);
  await insertPurchase(h.database.db, { customerId: customer.customerId, totalPrice: 30_000, at: kstAt('2026-11-06') });
  await setSandboxAccount(h.database.db, '신한', account, { balance: 10_000 }, h.clock.now());
  return { ...customer, account };
}

async function failOnThe15th() {
  await at(kstAt('2026-12-15', 10, 0));
  await runJob(h.database.db, h.clock, 'autopay');
  await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);
}

const attemptsOf = (customerId: number) =>
  h.database.db.select().from(autopayAttempts).where(eq(autopayAttempts.customerId, customerId));
const auditOf = (action: string) => h.database.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('retry a failed debit now (O18)', () => {
  it('debits once through autopay, shows the bank’s answer, and is audited', async () => {
    const c = await failedCustomer();
    await failOnThe15th();
    const [failed] = await attemptsOf(c.customerId);
    expect(failed?.status).toBe('FAILED');
    // Still short: the retry's answer is the bank's refusal, under a key of its own (round 1).
    h.clock.set(kstAt('2026-12-15', 10, 20));
    const refused = await post(`/api/ops/customers/${c.customerId}/debits/retry`, {
      statementId: failed?.statementId,
      reason: '고객 요청으로 재출금',
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.json().debit).toMatchObject({ status: 'FAILED', result: 'insufficient_funds', round: 1 });
    await setSandboxAccount(h.database.db, '신한', c.account, { balance: 50_000 }, h.clock.now());
    const paid = await post(`/api/ops/customers/${c.customerId}/debits/retry`, {
      statementId: failed?.statementId,
      reason: '잔액 채운 뒤 재출금',
    });
    expect(paid.json()).toMatchObject({ created: true, debit: { status: 'PAID', resultText: '출금 완료', round: 2 } });
    expect((await sandboxAccount(h.database.db, '신한', c.account)).balance).toBe(20_000);
    expect(await h.database.db.select().from(repayments).where(eq(repayments.customerId, c.customerId))).toHaveLength(
      1,
    );
    expect((await auditOf('autopay.retry')).map((row) => row.targetId)).toEqual([
      String(c.customerId),
      String(c.customerId),
    ]);
    // Paid: nothing left to retry.
    const again = await post(`/api/ops/customers/${c.customerId}/debits/retry`, {
      statementId: failed?.statementId,
      reason: '한 번 더',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('DEBIT_NOT_RETRYABLE');
  });

  it('racing the scheduled autopay run and a second click: one debit, one repayment', async () => {
    const c = await failedCustomer();
    await failOnThe15th();
    const [failed] = await attemptsOf(c.customerId);
    await setSandboxAccount(h.database.db, '신한', c.account, { balance: 50_000 }, h.clock.now());
    // The next day's run (past the failed rest) and two staff clicks at the same moment.
    await at(kstAt('2026-12-16', 10, 0));
    const scheduled = async () => {
      await runJob(h.database.db, h.clock, 'autopay');
      return runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);
    };
    const click = () =>
      post(`/api/ops/customers/${c.customerId}/debits/retry`, { statementId: failed?.statementId, reason: '재출금' });
    const [, first, second] = await Promise.all([scheduled(), click(), click()]);
    for (const res of [first, second]) expect([200, 409]).toContain(res.statusCode);
    const paidDebits = await h.database.db
      .select()
      .from(sandboxBankDebits)
      .where(and(eq(sandboxBankDebits.account, c.account), eq(sandboxBankDebits.result, 'paid')));
    expect(paidDebits).toHaveLength(1);
    expect((await sandboxAccount(h.database.db, '신한', c.account)).balance).toBe(20_000);
    expect(await h.database.db.select().from(repayments).where(eq(repayments.customerId, c.customerId))).toHaveLength(
      1,
    );
    expect((await attemptsOf(c.customerId)).filter((a) => a.status === 'PAID')).toHaveLength(1);
  });

  it('a retry whose process dies before the bank answers is finished once by the next autopay run', async () => {
    const c = await failedCustomer();
    await failOnThe15th();
    const [failed] = await attemptsOf(c.customerId);
    await setSandboxAccount(h.database.db, '신한', c.account, { balance: 50_000 }, h.clock.now());
    const sandbox = createSandboxBank(h.database.db, h.clock);
    // The bank debits, then the process "dies" before it can record the answer.
    const dying = dyingAfterDebit(sandbox);
    const [operator] = await h.database.db.select().from(staff).where(eq(staff.role, 'RISK')).limit(1);
    const collections = createCollectionsService({
      db: h.database.db,
      clock: h.clock,
      bank: dying,
      previewKey: Buffer.alloc(32, 1),
      suspend: async () => undefined,
      lift: async () => undefined,
    });
    const by: StaffPrincipal = {
      sessionId: 'test',
      staffId: operator?.id ?? 0,
      email: operator?.email ?? '',
      name: '리스크',
      role: 'RISK',
      totp: true,
    };
    await expect(collections.retryDebit(by, c.customerId, failed?.statementId ?? 0, '재출금')).rejects.toThrow(
      'process killed',
    );
    // After the lease, the scheduled background run asks again under the same key: the bank answers what it did.
    h.clock.advance(3 * 60_000);
    expect(await runAutopay(h.database.db, sandbox, h.clock)).toMatchObject({ paid: 1 });
    expect((await sandboxAccount(h.database.db, '신한', c.account)).balance).toBe(20_000);
    expect(await h.database.db.select().from(repayments).where(eq(repayments.customerId, c.customerId))).toHaveLength(
      1,
    );
  });

  it('refuses a bill whose debit never failed', async () => {
    const c = await failedCustomer();
    await at(kstAt('2026-12-15', 9, 0));
    const [row] = await attemptsOf(c.customerId);
    expect(row).toBeUndefined();
    const [statement] = await h.database.db.select().from(statements).where(eq(statements.customerId, c.customerId));
    const res = await post(`/api/ops/customers/${c.customerId}/debits/retry`, {
      statementId: statement?.id,
      reason: '미리 출금',
    });
    expect(res.statusCode).toBe(409);
    expect(await attemptsOf(c.customerId)).toHaveLength(0);
  });
});

describe('send a reminder now (O20)', () => {
  it('notifies through an event once a KST day, audited', async () => {
    const c = await failedCustomer();
    await failOnThe15th();
    const first = await post(`/api/ops/customers/${c.customerId}/remind`, { reason: '전화 연결 안 됨' });
    expect(first.json()).toEqual({ customerId: c.customerId, month: '2026-11', amount: 30_000 });
    const second = await post(`/api/ops/customers/${c.customerId}/remind`, { reason: '한 번 더' });
    expect(second.statusCode).toBe(429);
    expect(second.json().code).toBe('REMINDER_TOO_SOON');
    expect((await noticeKinds(h, c.customerId)).filter((k) => k === 'reminder_dday')).toHaveLength(1);
    expect(await auditOf('customer.remind')).toHaveLength(1);
    await at(kstAt('2026-12-16', 9, 0));
    expect((await post(`/api/ops/customers/${c.customerId}/remind`, { reason: '다음 날' })).statusCode).toBe(200);
  });
});

describe('a new debit account (O19)', () => {
  it('links it, audited with the numbers masked, and autopay waits for the customer’s consent and 1원 code', async () => {
    const c = await failedCustomer();
    await failOnThe15th();
    const res = await post(`/api/ops/customers/${c.customerId}/debit-account`, {
      bank: '국민',
      account: '123-456-789012',
      reason: '기존 계좌 해지, 고객 전화 요청',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ customerId: c.customerId, bank: '국민', account: '****9012', state: 'pending' });
    expect(await readSetting(h.database.db, c.customerId, h.clock.now())).toMatchObject({
      verified: false,
      state: 'pending',
      pendingReason: 'consent',
    });
    const [audit] = await auditOf('customer.debit-account');
    expect(JSON.stringify(audit)).not.toContain('123456789012');
    // Not debited while pending: the next day's plan leaves the customer out.
    h.clock.set(kstAt('2026-12-16', 10, 0));
    await runJob(h.database.db, h.clock, 'autopay');
    expect((await attemptsOf(c.customerId)).filter((a) => a.kstDate === '2026-12-16')).toHaveLength(0);
  });
});

describe('bulk actions on a filtered list (O21)', () => {
  it('acts on exactly the previewed customers, one audit row each, none for one who left the filter', async () => {
    const a = await failedCustomer();
    const b = await failedCustomer();
    const c = await failedCustomer();
    const outside = await h.signUp();
    await failOnThe15th();
    const list = await h.app.inject({ method: 'GET', url: '/api/ops/collections?list=failed-debits', headers: risk });
    expect(list.json().items.map((row: { customerId: number }) => row.customerId)).toEqual([
      a.customerId,
      b.customerId,
      c.customerId,
    ]);
    const preview = await post('/api/ops/collections/bulk/preview', {
      list: 'failed-debits',
      action: 'suspend',
      reason: '출금 실패 일괄 정지',
    });
    expect(preview.json()).toMatchObject({ count: 3 });
    // Between preview and confirm, c leaves the filter (its refused debit no longer counts as today's).
    await h.database.db
      .update(autopayAttempts)
      .set({ kstDate: '2026-12-14' })
      .where(eq(autopayAttempts.customerId, c.customerId));
    const confirm = await post('/api/ops/collections/bulk/confirm', { token: preview.json().token });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json().done).toEqual([a.customerId, b.customerId]);
    expect(confirm.json().skipped).toEqual([{ customerId: c.customerId, why: expect.any(String) }]);
    const rows = await auditOf('customer.suspend');
    expect(rows.map((row) => row.targetId).sort()).toEqual([String(a.customerId), String(b.customerId)].sort());
    expect(rows.every((row) => row.reason === '출금 실패 일괄 정지')).toBe(true);
    const suspended = await h.database.db
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.staffSuspended, true));
    expect(suspended.map((row) => row.id).sort()).toEqual([a.customerId, b.customerId].sort());
    expect(suspended.map((row) => row.id)).not.toContain(outside.customerId);
    // The same token twice does nothing twice: both are suspended already and reported.
    const replay = await post('/api/ops/collections/bulk/confirm', { token: preview.json().token });
    expect(replay.json().done).toEqual([]);
    expect(await auditOf('customer.suspend')).toHaveLength(2);
  });

  it('takes the work list’s own filter: the preview names whom the list shows, one outside it is untouched', async () => {
    const a = await failedCustomer();
    const b = await failedCustomer();
    const silver = await failedCustomer();
    await failOnThe15th();
    // All three were refused today; one is silver, outside a filter on bronze.
    await h.database.db
      .update(customers)
      .set({ gradePoint: gradeByName('silver').min })
      .where(eq(customers.id, silver.customerId));
    const shown: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `grade=bronze${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await h.app.inject({ method: 'GET', url: `/api/ops/lists/failed-debits?${query}`, headers: risk });
      expect(page.statusCode).toBe(200);
      shown.push(...page.json().items.map((row: { customerId: number }) => row.customerId));
      cursor = page.json().nextCursor;
    } while (cursor);
    expect(shown.sort()).toEqual([a.customerId, b.customerId].sort());
    const preview = await post('/api/ops/collections/bulk/preview', {
      list: 'failed-debits',
      grade: 'bronze',
      action: 'remind',
      reason: '브론즈 출금 실패 안내',
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().count).toBe(shown.length);
    expect(
      preview
        .json()
        .rows.map((row: { customerId: number }) => row.customerId)
        .sort(),
    ).toEqual(shown);
    const confirm = await post('/api/ops/collections/bulk/confirm', { token: preview.json().token });
    expect(confirm.json().done.sort()).toEqual(shown);
    const reminded = await auditOf('customer.remind');
    expect(reminded.map((row) => Number(row.targetId)).sort()).toEqual(shown);
    expect(reminded.map((row) => Number(row.targetId))).not.toContain(silver.customerId);
    expect(await noticeKinds(h, silver.customerId)).not.toContain('reminder_dday');
  });

  it('refuses a token that was altered, expired or is another operator’s', async () => {
    await failedCustomer();
    await failOnThe15th();
    const preview = await post('/api/ops/collections/bulk/preview', {
      list: 'failed-debits',
      action: 'remind',
      reason: '일괄 안내',
    });
    const token: string = preview.json().token;
    const [body, mac] = token.split('.');
    const widened = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body as string, 'base64url').toString()), customerIds: [1, 2, 3] }),
    ).toString('base64url');
    expect((await post('/api/ops/collections/bulk/confirm', { token: `${widened}.${mac}` })).statusCode).toBe(409);
    const other = (await signedInOperator(h, 'RISK')).auth;
    expect((await post('/api/ops/collections/bulk/confirm', { token }, other)).statusCode).toBe(409);
    h.clock.advance(11 * 60_000);
    expect((await post('/api/ops/collections/bulk/confirm', { token })).json().code).toBe('BULK_PREVIEW_STALE');
    expect(await auditOf('customer.remind')).toHaveLength(0);
  });
});
