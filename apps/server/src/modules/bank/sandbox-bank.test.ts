import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxBankCredits, sandboxBankDebits } from '../../db/schema';
import { createHarness, type Harness } from '../../test/harness';
import { createSandboxBank, setSandboxAccount } from './sandbox-bank';

/*
 * The sandbox bank books its movements at the app clock's time (a shifted test clock included), as the
 * reconciliation reads them back by day, and its statement lists only money it moved.
 */
let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: '2031-02-14T01:00:00Z' });
});
afterEach(() => h.close());

const ACCOUNT = { bank: '국민', account: '40000000001' } as const;
const move = { customerId: 1, ...ACCOUNT, amount: 30_000 };

describe('the sandbox bank', () => {
  it('books debits and credits at the app clock’s time and lists only what it moved', async () => {
    const bank = createSandboxBank(h.database.db, h.clock);
    await setSandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account, { balance: 40_000 }, h.clock.now());
    expect(await bank.debit({ ...move, idempotencyKey: 'autopay:1:2031-02-14' })).toBe('paid');
    h.clock.advance(60_000);
    expect(await bank.debit({ ...move, idempotencyKey: 'autopay:2:2031-02-14' })).toBe('insufficient_funds');
    expect(await bank.credit({ ...move, amount: 5_000, idempotencyKey: 'autopay-surplus:1' })).toBe('credited');

    const [debit, refused] = await h.database.db.select().from(sandboxBankDebits).orderBy(sandboxBankDebits.createdAt);
    expect(debit?.createdAt).toEqual(new Date('2031-02-14T01:00:00Z'));
    expect(refused?.createdAt).toEqual(new Date('2031-02-14T01:01:00Z'));
    const [credit] = await h.database.db.select().from(sandboxBankCredits);
    expect(credit?.createdAt).toEqual(new Date('2031-02-14T01:01:00Z'));

    const day = await bank.movements(new Date('2031-02-13T15:00:00Z'), new Date('2031-02-14T15:00:00Z'));
    expect(day).toEqual([
      { direction: 'debit', reference: 'autopay:1:2031-02-14', amount: 30_000, at: new Date('2031-02-14T01:00:00Z') },
      { direction: 'credit', reference: 'autopay-surplus:1', amount: 5_000, at: new Date('2031-02-14T01:01:00Z') },
    ]);
    expect(await bank.movements(new Date('2031-02-14T15:00:00Z'), new Date('2031-02-15T15:00:00Z'))).toEqual([]);
  });
});
