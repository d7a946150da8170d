import type { DebitResult } from '@ohgood/contract/autopay';
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxBankAccounts, sandboxBankCredits, sandboxBankDebits } from '../../db/schema';
import { type Executor, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import type { BankGateway, BankMovement, BankStatements, CreditResult } from './gateway';

/** An account the sandbox has never seen opens with this balance, so a new customer's autopay can succeed. */
export const SANDBOX_OPENING_BALANCE = 1_000_000;

export type SandboxAccountState = 'open' | 'closed' | 'unavailable';

/**
 * The built-in bank: balances in its own table, each debit and credit recorded under the caller's idempotency key in
 * its own transaction (as a real bank's would be: a product transaction that rolls back does not undo it).
 * A repeated key answers the first answer and never debits twice; `unavailable` is not recorded, so the
 * same key can be tried again. It books each movement at the app clock's time (a shifted test clock included),
 * and its statement is read back from the same records.
 */
export function createSandboxBank(db: Db, clock: Clock): BankGateway & BankStatements {
  return {
    debit: ({ bank, account, amount, idempotencyKey }) =>
      moveOnce<DebitResult>(db, clock, sandboxBankDebits, { bank, account, amount, idempotencyKey }, (balance) =>
        balance < amount ? { result: 'insufficient_funds' } : { result: 'paid', balance: balance - amount },
      ),
    credit: ({ bank, account, amount, idempotencyKey }) =>
      moveOnce<CreditResult>(db, clock, sandboxBankCredits, { bank, account, amount, idempotencyKey }, (balance) => ({
        result: 'credited',
        balance: balance + amount,
      })),
    movements: (from, to) => sandboxStatement(db, from, to),
  };
}

/** The records that moved money, by direction: a debit the bank paid, a credit it made. */
const MOVED = [
  { direction: 'debit', records: sandboxBankDebits, results: ['paid'] },
  { direction: 'credit', records: sandboxBankCredits, results: ['credited'] },
] as const;

async function sandboxStatement(db: Db, from: Date, to: Date): Promise<BankMovement[]> {
  const movements: BankMovement[] = [];
  for (const { direction, records, results } of MOVED) {
    const rows = await db
      .select({ reference: records.idempotencyKey, amount: records.amount, at: records.createdAt })
      .from(records)
      .where(and(gte(records.createdAt, from), lt(records.createdAt, to), inArray(records.result, [...results])))
      .orderBy(asc(records.createdAt));
    movements.push(...rows.map((row) => ({ direction, ...row })));
  }
  return movements.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * One money movement under its key, in its own transaction: a repeated key (waiting for the first on an
 * advisory lock) answers what the first did; an unavailable account is not recorded, a closed one refuses.
 * `decide` turns the open account's balance into the answer and, when money moves, the new balance.
 */
async function moveOnce<R extends string>(
  db: Db,
  clock: Clock,
  records: typeof sandboxBankDebits | typeof sandboxBankCredits,
  move: { bank: string; account: string; amount: number; idempotencyKey: string },
  decide: (balance: number) => { result: R; balance?: number },
): Promise<R | 'unavailable' | 'account_closed'> {
  const { bank, account, idempotencyKey } = move;
  return withTx(db, async (tx) => {
    const now = clock.now();
    const kind = records === sandboxBankDebits ? 'sandbox-bank' : 'sandbox-bank-credit';
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${kind}:${idempotencyKey}`}))`);
    const [done] = await tx
      .select({ result: records.result })
      .from(records)
      .where(eq(records.idempotencyKey, idempotencyKey));
    if (done) return done.result as R;
    await openIfNew(tx, bank, account, now);
    const where = and(eq(sandboxBankAccounts.bank, bank), eq(sandboxBankAccounts.account, account));
    const [row] = await tx.select().from(sandboxBankAccounts).where(where).for('update');
    if (!row) throw new Error('sandbox account missing after open');
    if (row.state === 'unavailable') return 'unavailable';
    const decided = row.state === 'closed' ? { result: 'account_closed' as const } : decide(row.balance);
    if ('balance' in decided && decided.balance !== undefined) {
      await tx.update(sandboxBankAccounts).set({ balance: decided.balance, updatedAt: now }).where(where);
    }
    await tx.insert(records).values({ ...move, result: decided.result, createdAt: now });
    return decided.result;
  });
}

async function openIfNew(executor: Executor, bank: string, account: string, at: Date): Promise<void> {
  await executor
    .insert(sandboxBankAccounts)
    .values({ bank, account, balance: SANDBOX_OPENING_BALANCE, updatedAt: at })
    .onConflictDoNothing();
}

/** Sets an account's balance and state at `at` (tests, seeding and `npm run bank -- set …`). */
export async function setSandboxAccount(
  executor: Executor,
  bank: string,
  account: string,
  change: { balance?: number; state?: SandboxAccountState },
  at: Date,
): Promise<{ balance: number; state: string }> {
  await openIfNew(executor, bank, account, at);
  const [row] = await executor
    .update(sandboxBankAccounts)
    .set({ ...change, updatedAt: at })
    .where(and(eq(sandboxBankAccounts.bank, bank), eq(sandboxBankAccounts.account, account)))
    .returning({ balance: sandboxBankAccounts.balance, state: sandboxBankAccounts.state });
  if (!row) throw new Error('sandbox account missing after open');
  return row;
}

/** An account's balance and state (the opening balance for one never seen). */
export async function sandboxAccount(
  executor: Executor,
  bank: string,
  account: string,
): Promise<{ balance: number; state: string }> {
  const [row] = await executor
    .select({ balance: sandboxBankAccounts.balance, state: sandboxBankAccounts.state })
    .from(sandboxBankAccounts)
    .where(and(eq(sandboxBankAccounts.bank, bank), eq(sandboxBankAccounts.account, account)));
  return row ?? { balance: SANDBOX_OPENING_BALANCE, state: 'open' };
}
