import type { DebitResult } from '@ohgood/contract/autopay';
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxBankAccounts, sandboxBankCredits, sandboxBankDebits, sandboxBankDeposits } from '../../db/schema';
import { type Executor, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import {
  type BankGateway,
  type BankMovement,
  type BankStatements,
  type CreditResult,
  VERIFICATION_DEPOSIT,
} from './gateway';

/** An account the sandbox has never seen opens with this balance, so a new customer's autopay can succeed. */
export const SANDBOX_OPENING_BALANCE = 1_000_000;

export type SandboxAccountState = 'open' | 'closed' | 'unavailable';

/**
 * The built-in bank: balances in its own table, each debit, credit and 1원 deposit recorded under the caller's
 * idempotency key in
 * its own transaction (as a real bank's would be: a product transaction that rolls back does not undo it).
 * A repeated key answers the first answer and never debits twice; `unavailable` is not recorded, so the
 * same key can be tried again. It books each movement at the app clock's time (a shifted test clock included),
 * and its statement is read back from the same records.
 */
export function createSandboxBank(db: Db, clock: Clock): BankGateway & BankStatements {
  return {
    debit: ({ bank, account, amount, idempotencyKey }) =>
      moveOnce<DebitResult>(db, clock, 'debit', { bank, account, amount, idempotencyKey }, (balance) =>
        balance < amount ? { result: 'insufficient_funds' } : { result: 'paid', balance: balance - amount },
      ),
    credit: ({ bank, account, amount, idempotencyKey }) =>
      moveOnce<CreditResult>(db, clock, 'credit', { bank, account, amount, idempotencyKey }, creditOf(amount)),
    depositVerification: ({ bank, account, depositorName, idempotencyKey }) =>
      moveOnce<CreditResult>(
        db,
        clock,
        'deposit',
        { bank, account, amount: VERIFICATION_DEPOSIT, idempotencyKey, depositorName },
        creditOf(VERIFICATION_DEPOSIT),
      ),
    movements: (from, to) => sandboxStatement(db, from, to),
  };
}

const creditOf =
  (amount: number) =>
  (balance: number): { result: CreditResult; balance: number } => ({ result: 'credited', balance: balance + amount });

/** Each kind of movement: its own records (and idempotency keys) and its own advisory lock space. */
const MOVES = {
  debit: { records: sandboxBankDebits, lock: 'sandbox-bank' },
  credit: { records: sandboxBankCredits, lock: 'sandbox-bank-credit' },
  deposit: { records: sandboxBankDeposits, lock: 'sandbox-bank-deposit' },
} as const;

/** The records that moved money, by direction: a debit the bank paid, a credit or 1원 deposit it made. */
const MOVED = [
  { direction: 'debit', records: sandboxBankDebits, results: ['paid'] },
  { direction: 'credit', records: sandboxBankCredits, results: ['credited'] },
  { direction: 'credit', records: sandboxBankDeposits, results: ['credited'] },
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
  kind: keyof typeof MOVES,
  move: { bank: string; account: string; amount: number; idempotencyKey: string; depositorName?: string },
  decide: (balance: number) => { result: R; balance?: number },
): Promise<R | 'unavailable' | 'account_closed'> {
  const { bank, account, idempotencyKey } = move;
  const { records, lock } = MOVES[kind];
  return withTx(db, async (tx) => {
    const now = clock.now();
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${lock}:${idempotencyKey}`}))`);
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
    const { depositorName, ...money } = move;
    // Only 1원 인증 deposits carry a depositor name.
    if (kind === 'deposit') {
      await tx
        .insert(sandboxBankDeposits)
        .values({ ...money, depositorName: depositorName ?? '', result: decided.result, createdAt: now });
    } else await tx.insert(MOVES[kind].records).values({ ...money, result: decided.result, createdAt: now });
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

/** The 1원 deposits an account received, newest first: what the customer's bank app would show. */
export async function sandboxDeposits(
  executor: Executor,
  bank: string,
  account: string,
  limit = 10,
): Promise<{ depositorName: string; amount: number; at: Date }[]> {
  return executor
    .select({
      depositorName: sandboxBankDeposits.depositorName,
      amount: sandboxBankDeposits.amount,
      at: sandboxBankDeposits.createdAt,
    })
    .from(sandboxBankDeposits)
    .where(
      and(
        eq(sandboxBankDeposits.bank, bank),
        eq(sandboxBankDeposits.account, account),
        eq(sandboxBankDeposits.result, 'credited'),
      ),
    )
    .orderBy(desc(sandboxBankDeposits.createdAt), desc(sandboxBankDeposits.idempotencyKey))
    .limit(limit);
}
