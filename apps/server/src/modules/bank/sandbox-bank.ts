import type { DebitResult } from '@ohgood/contract/autopay';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxBankAccounts, sandboxBankDebits } from '../../db/schema';
import { type Executor, withTx } from '../../db/tx';
import type { BankGateway } from './gateway';

/** An account the sandbox has never seen opens with this balance, so a new customer's autopay can succeed. */
export const SANDBOX_OPENING_BALANCE = 1_000_000;

export type SandboxAccountState = 'open' | 'closed' | 'unavailable';

/**
 * The built-in bank: balances in its own table, each debit recorded under the caller's idempotency key in
 * its own transaction (as a real bank's would be: a product transaction that rolls back does not undo it).
 * A repeated key answers the first answer and never debits twice; `unavailable` is not recorded, so the
 * same key can be tried again.
 */
export function createSandboxBank(db: Db): BankGateway {
  return {
    async debit({ bank, account, amount, idempotencyKey }) {
      return withTx(db, async (tx): Promise<DebitResult> => {
        // One debit per key at a time: the second waits here and then reads the first one's answer.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sandbox-bank:${idempotencyKey}`}))`);
        const [done] = await tx
          .select({ result: sandboxBankDebits.result })
          .from(sandboxBankDebits)
          .where(eq(sandboxBankDebits.idempotencyKey, idempotencyKey));
        if (done) return done.result as DebitResult;
        await openIfNew(tx, bank, account);
        const [row] = await tx
          .select()
          .from(sandboxBankAccounts)
          .where(and(eq(sandboxBankAccounts.bank, bank), eq(sandboxBankAccounts.account, account)))
          .for('update');
        if (!row) throw new Error('sandbox account missing after open');
        if (row.state === 'unavailable') return 'unavailable';
        const result: DebitResult =
          row.state === 'closed' ? 'account_closed' : row.balance < amount ? 'insufficient_funds' : 'paid';
        if (result === 'paid') {
          await tx
            .update(sandboxBankAccounts)
            .set({ balance: row.balance - amount, updatedAt: new Date() })
            .where(and(eq(sandboxBankAccounts.bank, bank), eq(sandboxBankAccounts.account, account)));
        }
        await tx.insert(sandboxBankDebits).values({ idempotencyKey, bank, account, amount, result });
        return result;
      });
    },
  };
}

async function openIfNew(executor: Executor, bank: string, account: string): Promise<void> {
  await executor
    .insert(sandboxBankAccounts)
    .values({ bank, account, balance: SANDBOX_OPENING_BALANCE })
    .onConflictDoNothing();
}

/** Sets an account's balance and state (tests, seeding and `npm run bank -- set …`). */
export async function setSandboxAccount(
  executor: Executor,
  bank: string,
  account: string,
  change: { balance?: number; state?: SandboxAccountState },
): Promise<{ balance: number; state: string }> {
  await openIfNew(executor, bank, account);
  const [row] = await executor
    .update(sandboxBankAccounts)
    .set({ ...change, updatedAt: new Date() })
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
