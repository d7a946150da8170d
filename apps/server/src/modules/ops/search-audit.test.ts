import { and, asc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, autopayConsents } from '../../db/schema';
import { createHarness, type Harness } from '../../test/harness';
import { signedInOperator } from '../../test/staff-fixture';
import { maskEmail } from './masking';

/** docs/rules/operations.md#O4, #O6: the console's search finds only exact identifiers, and leaves a trace. */

let h: Harness;
let support: Awaited<ReturnType<typeof signedInOperator>>;
beforeAll(async () => {
  h = await createHarness();
  support = await signedInOperator(h, 'SUPPORT');
});
afterAll(() => h.close());

async function search(q: string): Promise<number[]> {
  const res = await h.app.inject({
    method: 'GET',
    url: `/api/ops/customers?q=${encodeURIComponent(q)}`,
    headers: support.auth,
  });
  expect(res.statusCode).toBe(200);
  return res.json().items.map((row: { customerId: number }) => row.customerId);
}

/** The operator's search rows written after `afterId`, oldest first. */
const searchRowsAfter = (afterId: number) =>
  h.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.staffId, support.staffId), eq(auditLog.action, 'customer.search'), gt(auditLog.id, afterId)))
    .orderBy(asc(auditLog.id));

async function lastAuditId(): Promise<number> {
  const rows = await h.database.db.select({ id: auditLog.id }).from(auditLog);
  return Math.max(0, ...rows.map((row) => row.id));
}

describe('the mask-guessing game', () => {
  it('every guess writes an audit row without the query; no part of an e-mail or account finds anyone', async () => {
    const { customerId, emailId } = await h.signUp({ name: '김오굿', account: '110123456789' });
    const [local = '', domain = ''] = emailId.split('@');
    const mask = maskEmail(emailId);
    expect(mask).toBe(`${local.slice(0, 2)}**@${domain}`);
    const since = await lastAuditId();

    // What support could type to complete the mask: its visible start, growing pieces, the domain, the account's
    // visible end, wrong whole addresses — and at last the right one.
    const pieces = [
      local.slice(0, 2),
      local.slice(0, 4),
      local.slice(0, 8),
      local,
      `@${domain}`,
      domain,
      emailId.slice(3),
      `${local.slice(0, -1)}@${domain}`,
      `${local}x@${domain}`,
      '6789',
      '123456789',
    ];
    for (const guess of pieces) expect([guess, await search(guess)]).toEqual([guess, []]);
    expect(await search(emailId.toUpperCase())).toEqual([customerId]);
    const guesses = [...pieces, emailId.toUpperCase()];

    const rows = await searchRowsAfter(since);
    expect(rows).toHaveLength(guesses.length);
    for (const [i, row] of rows.entries()) {
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(emailId);
      expect(stored.toLowerCase()).not.toContain(local.toLowerCase());
      // Every guess of 4 characters or more is absent (shorter ones are too common to search text for).
      const guess = guesses[i] as string;
      if (guess.length >= 4) expect(stored.toLowerCase()).not.toContain(guess.toLowerCase());
      expect(row).toMatchObject({ role: 'SUPPORT', targetType: 'search' });
    }
    const last = rows.at(-1);
    expect(last?.after).toMatchObject({ kind: 'email', results: 1, resultIds: [customerId] });
    expect(rows[0]?.after).toMatchObject({ kind: 'name', results: 0, resultIds: [] });
    expect(rows[9]?.after).toMatchObject({ kind: 'number', resultIds: [] });
    // The hash is keyed and stable: the same query gives the same hash (an auditor with the key can match a
    // suspected query); different queries give different ones.
    await search(emailId);
    const [again] = await searchRowsAfter(last?.id ?? 0);
    const hashOf = (row: typeof last) => (row?.after as { queryHash?: string } | undefined)?.queryHash;
    expect(hashOf(again)).toBe(hashOf(last));
    expect(new Set(rows.map(hashOf)).size).toBe(rows.length);
    expect(hashOf(last)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('what the search takes', () => {
  it('an exact account number (hyphens allowed), an exact id, a name in part with masked results', async () => {
    const { customerId } = await h.signUp({ name: '남궁민수', account: '3333-01-7654321' });
    expect(await search('3333-01-7654321')).toEqual([customerId]);
    expect(await search('3333017654321')).toEqual([customerId]);
    expect(await search('7654321')).not.toContain(customerId);
    expect(await search(String(customerId))).toEqual([customerId]);
    expect(await search('궁민')).toContain(customerId);
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/ops/customers?q=${encodeURIComponent('궁민')}`,
      headers: support.auth,
    });
    expect(JSON.stringify(res.json())).not.toContain('남궁민수');
    expect(res.json().items).toContainEqual(expect.objectContaining({ customerId, name: '남**수' }));
  });

  it('an account the customer once consented to be debited from, exactly, audited without the number', async () => {
    const { customerId } = await h.signUp({ account: '5555-02-1234567' });
    // Autopay was once set up on an older account; the caller reads out the one their bank debited.
    await h.database.db.insert(autopayConsents).values({
      customerId,
      action: 'GRANTED',
      bank: '신한',
      account: '77701234567',
      wordingVersion: 'v0',
      at: h.clock.now(),
    });
    const since = await lastAuditId();
    expect(await search('777-01-234567')).toEqual([customerId]);
    expect(await search('7770123456')).toEqual([]);
    const rows = await searchRowsAfter(since);
    expect(rows.map((row) => row.after)).toMatchObject([
      { kind: 'number', resultIds: [customerId] },
      { kind: 'number', resultIds: [] },
    ]);
    expect(JSON.stringify(rows)).not.toContain('77701234567');
  });
});
