import { AUTOPAY_CONSENT } from '@ohgood/contract/autopay';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autopayConsents, contactNotes, customers } from '../../../db/schema';
import { failedAttempt, insertCustomer, makeOverdue } from '../../../test/desk-fixture';
import { createHarness, type Harness } from '../../../test/harness';
import { insertPurchase } from '../../../test/purchase-fixture';
import { signedInOperator } from '../../../test/staff-fixture';

/**
 * docs/rules/operations.md#O16: the work lists behind the console home's counts, on the real database — what
 * each shows, the shared filter, and keyset paging that neither repeats nor skips a row while rows are
 * written between two pages.
 */

let h: Harness;
let risk: Record<string, string>;
let support: Record<string, string>;
beforeAll(async () => {
  h = await createHarness();
  risk = (await signedInOperator(h, 'RISK')).auth;
  support = (await signedInOperator(h, 'SUPPORT')).auth;
});
afterAll(() => h.close());

const db = () => h.database.db;
const kst = (iso: string) => new Date(`${iso}+09:00`);

async function get(url: string, headers = risk) {
  const res = await h.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Array<Record<string, unknown> & { customerId: number }>; nextCursor: string | null };
}

/** Every page of `url`, calling `between` after each page but the last; the rows in the order shown. */
async function allPages(url: string, between: (page: number) => Promise<void> = async () => {}) {
  const rows: Array<Record<string, unknown> & { customerId: number }> = [];
  let cursor: string | null = null;
  let page = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const json = await get(cursor ? `${url}${sep}cursor=${cursor}` : url);
    rows.push(...json.items);
    cursor = json.nextCursor;
    if (cursor) await between(page++);
  } while (cursor);
  return rows;
}

const only = <T extends { customerId: number }>(rows: T[], ids: number[]) =>
  rows.filter((row) => ids.includes(row.customerId));

describe('overdue customers', () => {
  it('shows amount, days overdue and the latest promise; every filter narrows it', async () => {
    const gold = await insertCustomer(db(), {
      gradePoint: 50,
      suspended: true,
      staffSuspended: true,
      autopay: false,
      createdAt: kst('2026-10-01T10:00:00'),
    });
    const bronze = await insertCustomer(db(), { suspended: true });
    const paying = await insertCustomer(db());
    await makeOverdue(db(), gold, 50_000, '2026-09', kst('2026-11-12T09:00:00'));
    await makeOverdue(db(), bronze, 12_000, '2026-09', kst('2026-11-19T09:00:00'));
    await makeOverdue(db(), bronze, 8_000, '2026-10', kst('2026-11-20T09:00:00'));
    // Owes on a statement that is not overdue: on no overdue list.
    await insertPurchase(db(), { customerId: paying, totalPrice: 1_000, at: kst('2026-11-20T09:00:00') });
    // Two notes: the newer promise is the one shown.
    for (const promiseDate of ['2026-11-24', '2026-11-27']) {
      const note = await h.app.inject({
        method: 'POST',
        url: `/api/ops/customers/${bronze}/notes`,
        headers: risk,
        payload: { channel: 'CALL', outcome: 'PROMISED', promiseDate, body: '월말에 입금하겠다고 함' },
      });
      expect(note.statusCode, note.body).toBe(200);
    }
    const mine = [gold, bronze, paying];

    const byAmount = only((await get('/api/ops/lists/overdue?sort=amount')).items, mine);
    expect(byAmount).toEqual([
      expect.objectContaining({
        customerId: gold,
        name: '홍*동',
        amount: 50_000,
        daysOverdue: 10,
        oldestMonth: '2026-09',
        promiseDate: null,
        gradeName: 'gold',
      }),
      expect.objectContaining({ customerId: bronze, amount: 20_000, daysOverdue: 3, promiseDate: '2026-11-27' }),
    ]);
    // Masked as search masks: no full e-mail or account in a row.
    expect(JSON.stringify(byAmount)).not.toMatch(/desk\d+-\d+@example\.com/);

    const ids = async (query: string) =>
      only((await get(`/api/ops/lists/overdue?${query}`)).items, mine).map((row) => row.customerId);
    expect(await ids('sort=days&dir=asc')).toEqual([bronze, gold]);
    expect(await ids('grade=gold')).toEqual([gold]);
    expect(await ids('grade=bronze')).toEqual([bronze]);
    expect(await ids('suspended=staff')).toEqual([gold]);
    expect(await ids('suspended=system')).toEqual([bronze]);
    expect(await ids('suspended=no')).toEqual([]);
    expect(await ids('autopay=off')).toEqual([gold]);
    expect(await ids('autopay=on')).toEqual([bronze]);
    expect(await ids('joinedFrom=2026-10-01&joinedTo=2026-10-01')).toEqual([gold]);
    expect(await ids('joinedFrom=2026-10-02')).toEqual([bronze]);
    expect(await ids('overdue=no')).toEqual([]);
  });

  it('pages by cursor without a row twice or missed while customers go overdue between pages', async () => {
    const start: number[] = [];
    for (let i = 0; i < 40; i++) {
      const id = await insertCustomer(db());
      await makeOverdue(db(), id, [30_000, 20_000, 10_000][i % 3] as number, '2026-10', kst('2026-11-20T09:00:00'));
      start.push(id);
    }
    const late: number[] = [];
    const rows = await allPages('/api/ops/lists/overdue?sort=amount', async () => {
      // One that sorts before the cursor (not shown on later pages) and one after it (shown).
      for (const amount of [90_000, 500]) {
        const id = await insertCustomer(db());
        await makeOverdue(db(), id, amount, '2026-10', kst('2026-11-20T09:00:00'));
        if (amount === 500) late.push(id);
      }
    });
    const seen = rows.map((row) => row.customerId);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of [...start, ...late]) expect(seen).toContain(id);
    const amounts = rows.map((row) => row.amount as number);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
  });
});

describe("today's failed debits", () => {
  it("lists today's refused debits with the bank's answer, paged by cursor while more fail", async () => {
    const today = '2026-11-22';
    const start: number[] = [];
    for (let i = 0; i < 35; i++) {
      const id = await insertCustomer(db(), { autopay: i % 5 !== 0 });
      await failedAttempt(db(), id, today, 10_000 + (i % 4) * 1000, i % 2 ? 'insufficient_funds' : 'account_closed');
      start.push(id);
    }
    const yesterday = await insertCustomer(db());
    await failedAttempt(db(), yesterday, '2026-11-21', 99_000, 'insufficient_funds');
    const late: number[] = [];
    const rows = await allPages('/api/ops/lists/failed-debits?sort=amount', async () => {
      const id = await insertCustomer(db());
      await failedAttempt(db(), id, today, 1_000, 'unavailable');
      late.push(id);
    });
    const seen = rows.map((row) => row.customerId);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of [...start, ...late]) expect(seen).toContain(id);
    expect(seen).not.toContain(yesterday);
    const first = rows.find((row) => row.customerId === start[1]);
    expect(first).toMatchObject({ result: 'insufficient_funds', amount: 11_000, month: '2026-11', tries: 1 });

    // The default order is the newest attempt first.
    const off = only(await allPages('/api/ops/lists/failed-debits?autopay=off'), start).map((row) => row.customerId);
    expect(off).toEqual(start.filter((_, i) => i % 5 === 0).reverse());
  });
});

describe('autopay pending verification', () => {
  it('lists customers with autopay on and not yet debited, ascending by id across inserts', async () => {
    const start: number[] = [];
    for (let i = 0; i < 35; i++) start.push(await insertCustomer(db()));
    const off = await insertCustomer(db(), { autopay: false });
    const late: number[] = [];
    const rows = await allPages('/api/ops/lists/autopay-pending?dir=asc', async () => {
      late.push(await insertCustomer(db()));
    });
    const seen = rows.map((row) => row.customerId);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    for (const id of [...start, ...late]) expect(seen).toContain(id);
    expect(seen).not.toContain(off);
    expect(rows.find((row) => row.customerId === start[0])).toMatchObject({ reason: 'consent' });
  });

  it('says what each customer waits for: consent first, then the 1원 인증', async () => {
    const consented = await insertCustomer(db(), { createdAt: kst('2026-09-01T10:00:00') });
    const [row] = await db().select().from(customers).where(eq(customers.id, consented));
    // Consent to the current words for the linked account: only the verification is missing.
    await db()
      .insert(autopayConsents)
      .values({
        customerId: consented,
        action: 'GRANTED',
        bank: row?.accountName as string,
        account: row?.account as string,
        wordingVersion: AUTOPAY_CONSENT.version,
        at: h.clock.now(),
      });
    const none = await insertCustomer(db(), { createdAt: kst('2026-09-01T11:00:00') });
    const rows = (await get('/api/ops/lists/autopay-pending?joinedFrom=2026-09-01&joinedTo=2026-09-01')).items;
    expect(rows.map((r) => [r.customerId, r.reason])).toEqual([
      [none, 'consent'],
      [consented, 'verification'],
    ]);
  });

  it('is open to support; the collections lists are not', async () => {
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/ops/lists/autopay-pending', headers: support })).statusCode,
    ).toBe(200);
    for (const list of ['overdue', 'failed-debits']) {
      const res = await h.app.inject({ method: 'GET', url: `/api/ops/lists/${list}`, headers: support });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('cursors and notes', () => {
  it('refuses a forged cursor', async () => {
    for (const cursor of [
      'not-json',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('["x",1]').toString('base64url'),
    ]) {
      const res = await h.app.inject({ method: 'GET', url: `/api/ops/lists/overdue?cursor=${cursor}`, headers: risk });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_CURSOR');
    }
  });

  it('lets support note a call but not set a promise-to-pay date; a past or far date is refused', async () => {
    const customerId = await insertCustomer(db());
    const note = (headers: Record<string, string>, payload: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: `/api/ops/customers/${customerId}/notes`, headers, payload });
    const promise = { channel: 'CALL', outcome: 'PROMISED', promiseDate: '2026-11-30', body: '다음 주 납부 약속' };
    expect((await note(support, promise)).statusCode).toBe(403);
    expect((await note(support, { channel: 'MESSAGE', outcome: 'NO_ANSWER', body: '문자 남김' })).statusCode).toBe(200);
    expect((await note(risk, { ...promise, promiseDate: '2026-11-21' })).json().code).toBe('INVALID_PROMISE_DATE');
    expect((await note(risk, { ...promise, promiseDate: '2027-03-01' })).json().code).toBe('INVALID_PROMISE_DATE');
    // A promise without its date is not a promise.
    expect((await note(risk, { ...promise, promiseDate: null })).statusCode).toBe(400);
    const rows = await db().select().from(contactNotes).where(eq(contactNotes.customerId, customerId));
    expect(rows.map((row) => row.outcome)).toEqual(['NO_ANSWER']);
    // The customer row is untouched by a note.
    const [customer] = await db().select().from(customers).where(eq(customers.id, customerId));
    expect(customer?.suspended).toBe(false);
  });
});
