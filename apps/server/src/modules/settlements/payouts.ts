import { maskAccount } from '@ohgood/contract/bank';
import { kstDate } from '@ohgood/contract/kst';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settlements } from '../../db/schema';
import { rowsOf, withTx } from '../../db/tx';
import { recordEvents } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { type BankGateway, type CreditResult, withinDeadline } from '../bank/gateway';

/** The bank's reference for a settlement's payout: the same key on every attempt (docs/rules/settlement.md#M5). */
export const payoutKeyOf = (settlementId: number) => `settlement-payout:${settlementId}`;

export const PAYOUT_RULES = {
  /** A claimed payout is another instance's to finish for this long (its bank call included). */
  leaseMinutes: 10,
  /** A bank call past this is `unknown`: the payout is asked again, with the same key, once its lease ends. */
  bankTimeoutSeconds: 20,
  /** When a payout the bank did not make is tried again. */
  retryMinutes: { unavailable: 15, account_closed: 6 * 60 },
} as const;

export interface PayoutOptions {
  bankTimeoutMs?: number;
}

export interface PayoutRun {
  paid: number;
  retrying: number;
}

const minutes = (n: number) => n * 60_000;

/**
 * Pays every settlement that is due (its due date reached in KST), not held and with a verified account, one
 * at a time: claim (a lease, taken by one instance only) → the bank's credit under the settlement's own key,
 * within a deadline → record it PAID with `settlement.paid` in one transaction. The bank call sits between
 * two transactions: if this process dies after the bank answered, the claim's lease ends and the payout is
 * asked again with the same key; the bank answers what it did the first time, so the money moves once and
 * the payout is recorded once. A refusal or an unavailable bank is retried later.
 */
export async function payDueSettlements(
  db: Db,
  bank: BankGateway,
  clock: Clock,
  { bankTimeoutMs = PAYOUT_RULES.bankTimeoutSeconds * 1000 }: PayoutOptions = {},
): Promise<PayoutRun> {
  const now = clock.now();
  const due = await rowsOf<{ id: number }>(
    db,
    sql`select s.id from settlements s join merchants m on m.id = s.merchant_id
      where s.status = 'PENDING' and s.due_date <= ${kstDate(now)}::date
        and (s.claimed_until is null or s.claimed_until <= ${now})
        and (s.next_try_at is null or s.next_try_at <= ${now})
        and ${payableTo(sql`m`)}
      order by s.due_date, s.id`,
  );
  const run: PayoutRun = { paid: 0, retrying: 0 };
  for (const { id } of due) {
    const outcome = await payOne(db, bank, clock, id, bankTimeoutMs);
    if (outcome === 'paid') run.paid++;
    else if (outcome !== 'taken') run.retrying++;
  }
  return run;
}

/** The merchant `m` can be paid: its settlement account verified, its payouts not held. */
const payableTo = (m: ReturnType<typeof sql>) =>
  sql`${m}.settlement_account_verified_at is not null
    and not exists (select 1 from merchant_payout_holds h where h.merchant_id = ${m}.id and h.released_at is null)`;

async function payOne(
  db: Db,
  bank: BankGateway,
  clock: Clock,
  settlementId: number,
  bankTimeoutMs: number,
): Promise<'paid' | 'taken' | CreditResult | 'unknown'> {
  const claimedAt = clock.now();
  // The claim: one instance wins the row lock; the other re-reads the claim and takes nothing. The first
  // attempt fixes the account every retry of the key pays to.
  const [claim] = await rowsOf<{
    merchant_id: number;
    business_date: string;
    payout: string;
    bank: string;
    account: string;
  }>(
    db,
    sql`update settlements s set claimed_until = ${new Date(claimedAt.getTime() + minutes(PAYOUT_RULES.leaseMinutes))},
          attempts = s.attempts + 1,
          payout_bank = coalesce(s.payout_bank, m.settlement_bank),
          payout_account = coalesce(s.payout_account, m.settlement_account)
        from merchants m
        where s.id = ${settlementId} and m.id = s.merchant_id and s.status = 'PENDING'
          and (s.claimed_until is null or s.claimed_until <= ${claimedAt}) and ${payableTo(sql`m`)}
        returning s.merchant_id, s.business_date::text, s.payout::text, s.payout_bank as bank,
          s.payout_account as account`,
  );
  if (!claim) return 'taken';
  const amount = Number(claim.payout);
  const answer = await withinDeadline(
    bank.credit({
      merchantId: claim.merchant_id,
      bank: claim.bank,
      account: claim.account,
      amount,
      idempotencyKey: payoutKeyOf(settlementId),
    }),
    bankTimeoutMs,
  );
  await withTx(db, async (tx) => {
    const now = clock.now();
    const pending = and(eq(settlements.id, settlementId), eq(settlements.status, 'PENDING'));
    if (answer === 'credited') {
      const [paid] = await tx
        .update(settlements)
        .set({ status: 'PAID', paidAt: now, claimedUntil: null, lastResult: answer })
        .where(pending)
        .returning({ id: settlements.id });
      if (!paid) return;
      await recordEvents(
        tx,
        [
          {
            type: 'settlement.paid',
            settlementId,
            merchantId: claim.merchant_id,
            date: claim.business_date,
            amount,
            bank: claim.bank,
            account: maskAccount(claim.account),
          },
        ],
        now,
      );
      return;
    }
    // Not known to have moved: the lease stands, so the same key is asked again once it ends.
    if (answer === 'unknown') {
      await tx.update(settlements).set({ lastResult: answer }).where(pending);
      return;
    }
    await tx
      .update(settlements)
      .set({
        claimedUntil: null,
        lastResult: answer,
        nextTryAt: new Date(now.getTime() + minutes(PAYOUT_RULES.retryMinutes[answer])),
      })
      .where(pending);
  });
  return answer === 'credited' ? 'paid' : answer;
}
