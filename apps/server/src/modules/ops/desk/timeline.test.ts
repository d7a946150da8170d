import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog, autopayAttempts, notifications, repayments, statements } from '../../../db/schema';
import { failedAttempt, insertCustomer } from '../../../test/desk-fixture';
import { createHarness, type Harness } from '../../../test/harness';
import { insertPurchase } from '../../../test/purchase-fixture';
import { refundFromConsole, signedInOperator } from '../../../test/staff-fixture';

/**
 * docs/rules/operations.md#O17: a customer's timeline merges every source newest first, pages by cursor through
 * items that share an instant, keeps a reveal's value out, and shows each contact note once (audited apart).
 */

let h: Harness;
let risk: Awaited<ReturnType<typeof signedInOperator>>;
beforeAll(async () => {
  h = await createHarness();
  risk = await signedInOperator(h, 'RISK');
});
afterAll(() => h.close());

const db = () => h.database.db;
const kst = (iso: string) => new Date(`${iso}+09:00`);
type Item = { id: string; at: string; kind: string; status: string | null; title: string; detail: string | null };

async function timeline(customerId: number) {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const res: { statusCode: number; body: string; json(): { items: Item[]; nextCursor: string | null } } =
      await h.app.inject({
        method: 'GET',
        url: `/api/ops/customers/${customerId}/timeline${cursor ? `?cursor=${cursor}` : ''}`,
        headers: risk.auth,
      });
    expect(res.statusCode, res.body).toBe(200);
    items.push(...res.json().items);
    cursor = res.json().nextCursor;
  } while (cursor);
  return items;
}

it('merges payments, statements, repayments, debits, notices, staff actions and notes, newest first', async () => {
  const customerId = await insertCustomer(db(), { name: '김오굿', account: '110123456789' });
  const purchaseId = await insertPurchase(db(), {
    customerId,
    totalPrice: 30_000,
    requestName: '운동화',
    at: kst('2026-10-05T10:00:00'),
  });
  const month = and(eq(statements.customerId, customerId), eq(statements.month, '2026-10'));
  await db()
    .update(statements)
    .set({
      createdAt: kst('2026-11-01T00:00:00'),
      extension: 'MANUAL',
      extendedAt: kst('2026-11-10T09:00:00'),
      overdueAt: kst('2026-11-20T09:00:00'),
    })
    .where(month);
  await db()
    .insert(repayments)
    .values({
      customerId,
      amount: 5_000,
      purchaseIds: [],
      account: '110123456789',
      accountName: '국민',
      createdAt: kst('2026-11-15T09:00:00'),
    });
  const attemptId = await failedAttempt(db(), customerId, '2026-11-21', 30_000, 'insufficient_funds', '2026-10');
  await db()
    .update(autopayAttempts)
    .set({ createdAt: kst('2026-11-21T06:00:00'), finishedAt: kst('2026-11-21T07:00:00') })
    .where(eq(autopayAttempts.id, attemptId));
  await db()
    .insert(notifications)
    .values({
      customerId,
      dedupeKey: `desk-test-${customerId}`,
      kind: 'autopay_failed',
      category: 'billing',
      title: '자동이체 실패',
      body: '잔액이 부족해요',
      link: '/bill',
      createdAt: kst('2026-11-21T08:00:00'),
    });
  const post = (path: string, payload: Record<string, unknown>) =>
    h.app.inject({ method: 'POST', url: `/api/ops${path}`, headers: risk.auth, payload });
  expect((await post(`/customers/${customerId}/suspend`, { reason: '연체 상담 중' })).statusCode).toBe(200);
  h.clock.advance(60_000);
  expect(
    (await post(`/customers/${customerId}/reveal`, { field: 'account', reason: '고객 본인 확인' })).statusCode,
  ).toBe(200);
  h.clock.advance(60_000);
  const note = await post(`/customers/${customerId}/notes`, {
    channel: 'CALL',
    outcome: 'PROMISED',
    promiseDate: '2026-11-25',
    body: '25일까지 납부 약속',
  });
  expect(note.statusCode, note.body).toBe(200);
  h.clock.advance(60_000);
  await refundFromConsole(h, purchaseId);

  const items = await timeline(customerId);
  // Only what this test wrote: the refund's own notices are stamped by the database's clock.
  const mine = items.filter((item) => !(item.kind === 'notice' && item.title !== '자동이체 실패'));
  expect(mine.map((item) => `${item.kind}:${item.status ?? ''}`)).toEqual([
    // The act and its fact share the instant: by kind, staff before refund.
    'staff:payment.refund',
    'refund:',
    'note:PROMISED',
    'staff:customer.reveal',
    'staff:customer.suspend',
    'notice:autopay_failed',
    'autopay:FAILED',
    'overdue:',
    'repayment:',
    'extension:MANUAL',
    'statement:',
    // The purchase's own status is now the refund's.
    `payment:${items.find((item) => item.kind === 'payment')?.status}`,
  ]);
  expect(items.map((item) => item.at)).toEqual([...items.map((item) => item.at)].sort().reverse());
  expect(mine.find((item) => item.kind === 'autopay')).toMatchObject({
    at: '2026-11-21T07:00:00+09:00',
    title: '2026-10',
    detail: 'insufficient_funds',
  });
  expect(mine.find((item) => item.kind === 'note')).toMatchObject({
    title: '25일까지 납부 약속',
    detail: 'CALL',
    promiseDate: '2026-11-25',
    staffName: expect.stringMatching(/^RISK 운영자/),
  });
  // The reveal is on the timeline as an act; the value it showed is not.
  expect(JSON.stringify(items)).not.toContain('110123456789');
  // The note was audited, once, with its promise date.
  const audits = await db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetId, String(customerId)), eq(auditLog.action, 'customer.note')));
  expect(audits).toHaveLength(1);
  expect(audits[0]?.after).toMatchObject({ channel: 'CALL', outcome: 'PROMISED', promiseDate: '2026-11-25' });
});

it('pages through items sharing one instant with none twice or missed, while notes are added', async () => {
  const customerId = await insertCustomer(db());
  const add = () =>
    h.app.inject({
      method: 'POST',
      url: `/api/ops/customers/${customerId}/notes`,
      headers: risk.auth,
      payload: { channel: 'MESSAGE', outcome: 'NO_ANSWER', body: '문자 발송' },
    });
  // The clock stands still: all 45 notes share their instant.
  for (let i = 0; i < 45; i++) expect((await add()).statusCode).toBe(200);
  const first = await h.app.inject({
    method: 'GET',
    url: `/api/ops/customers/${customerId}/timeline`,
    headers: risk.auth,
  });
  const page1 = first.json();
  expect(page1.items).toHaveLength(40);
  // A note written between the pages sorts before the cursor: the next page neither repeats nor skips.
  h.clock.advance(1000);
  expect((await add()).statusCode).toBe(200);
  const second = await h.app.inject({
    method: 'GET',
    url: `/api/ops/customers/${customerId}/timeline?cursor=${page1.nextCursor}`,
    headers: risk.auth,
  });
  const ids = [...page1.items, ...second.json().items].map((item: Item) => item.id);
  expect(new Set(ids).size).toBe(45);
  expect(ids).toHaveLength(45);
  expect(second.json().nextCursor).toBeNull();
  expect((await timeline(customerId)).filter((item) => item.kind === 'note')).toHaveLength(46);
});

it('answers 404 for a customer that does not exist', async () => {
  const res = await h.app.inject({ method: 'GET', url: '/api/ops/customers/999999/timeline', headers: risk.auth });
  expect(res.statusCode).toBe(404);
});
