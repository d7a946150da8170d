import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomerIfAny } from '../../db/locks';
import { autopayAttempts, customers, purchases, statements } from '../../db/schema';
import { type Executor, rowsOf, type Tx } from '../../db/tx';
import { autopayActiveSql } from './standing';

/**
 * The SQL of the autopay job: its attempts' plan, claim, settlement and surplus; the job and its actions beside
 * it decide.
 */

export type Attempt = typeof autopayAttempts.$inferSelect;

/** A statement the plan may debit, before its due date is checked. */
export type PlanCandidate = { id: number; customer_id: number; month: string; extension: string | null };

/**
 * The statements before `month` of customers whose autopay is active, not overdue, with unpaid lines, with no
 * open attempt and no debit that failed after `failedSince`; in id order.
 */
export const planCandidates = (tx: Tx, month: string, failedSince: Date) =>
  rowsOf<PlanCandidate>(
    tx,
    sql`select s.id, s.customer_id, s.month, s.extension from ${statements} s
      join ${customers} c on c.id = s.customer_id
      where ${autopayActiveSql(sql`c`)} and s.overdue_at is null and s.month < ${month}
        and exists (select 1 from ${purchases} p where p.customer_id = s.customer_id
          and p.statement_month = s.month and p.status = 'UNPAID')
        and not exists (select 1 from ${autopayAttempts} a where a.statement_id = s.id and a.status = 'PENDING')
        and not exists (select 1 from ${autopayAttempts} a where a.statement_id = s.id and a.status = 'FAILED'
          and a.finished_at > ${failedSince})
      order by s.id`,
  );

/** Adds the KST day's attempt for each statement, except where it has one already; how many were added. */
export async function insertPlannedAttempts(tx: Tx, due: PlanCandidate[], today: string, at: Date) {
  const inserted = await tx
    .insert(autopayAttempts)
    .values(due.map((row) => ({ statementId: row.id, customerId: row.customer_id, kstDate: today, nextTryAt: at })))
    .onConflictDoNothing()
    .returning({ id: autopayAttempts.id });
  return inserted.length;
}

/**
 * The oldest PENDING attempt due at `now` that no lease holds (or only the one named), row-locked; one whose
 * row another transaction holds is passed over.
 */
export async function pickDueAttempt(tx: Tx, now: Date, onlyId?: number) {
  const only = onlyId === undefined ? sql`` : sql`and id = ${onlyId}`;
  const [row] = await rowsOf<{ id: number; customer_id: number }>(
    tx,
    sql`select id, customer_id from ${autopayAttempts}
      where status = 'PENDING' and next_try_at <= ${now} and (lease_until is null or lease_until <= ${now})
      ${only} order by id limit 1 for update skip locked`,
  );
  return row;
}

/** The customer's row, locked, waiting at most `waitMs` for another transaction's lock (then a lock timeout). */
export async function lockCustomerWaiting(tx: Tx, customerId: number, waitMs: number) {
  await tx.execute(sql.raw(`set local lock_timeout = ${Math.max(1, Math.round(waitMs))}`));
  const customer = await lockCustomerIfAny(tx, customerId);
  await tx.execute(sql`set local lock_timeout = 0`);
  return customer;
}

/** Leases the attempt until `until` and counts the try. */
export async function leaseAttempt(tx: Tx, attemptId: number, until: Date): Promise<Attempt | undefined> {
  const [attempt] = await tx
    .update(autopayAttempts)
    .set({ leaseUntil: until, tries: sql`tries + 1` })
    .where(eq(autopayAttempts.id, attemptId))
    .returning();
  return attempt;
}

/** Closes an attempt that has nothing to debit, with the reason. */
export async function skipAttempt(tx: Tx, attemptId: number, reason: string, now: Date) {
  await tx
    .update(autopayAttempts)
    .set({ status: 'SKIPPED', result: reason, finishedAt: now, leaseUntil: null })
    .where(eq(autopayAttempts.id, attemptId));
}

/** The attempt's statement (its month, whether it is overdue). */
export async function findStatement(tx: Tx, statementId: number) {
  const [statement] = await tx.select().from(statements).where(eq(statements.id, statementId));
  return statement;
}

/** The customer's unpaid lines of `month` and every month before, oldest first. */
export const unpaidLinesThrough = (tx: Tx, customerId: number, month: string) =>
  tx
    .select({ id: purchases.id, price: purchases.price })
    .from(purchases)
    .where(
      and(
        eq(purchases.customerId, customerId),
        eq(purchases.status, 'UNPAID'),
        sql`${purchases.statementMonth} <= ${month}`,
      ),
    )
    .orderBy(asc(purchases.id));

/** Fixes the attempt's amount and lines, and marks the lines as collected by it. */
export async function fixAttemptLines(tx: Tx, attemptId: number, fixed: { amount: number; purchaseIds: number[] }) {
  await tx.update(autopayAttempts).set(fixed).where(eq(autopayAttempts.id, attemptId));
  await tx.update(purchases).set({ collectingAttemptId: attemptId }).where(inArray(purchases.id, fixed.purchaseIds));
}

/** Moves a still PENDING attempt's next try to `at`. */
export async function postponeAttempt(db: Db, attemptId: number, at: Date) {
  await db
    .update(autopayAttempts)
    .set({ nextTryAt: at })
    .where(and(eq(autopayAttempts.id, attemptId), eq(autopayAttempts.status, 'PENDING')));
}

/** Writes an attempt's answer if it is still PENDING; whether it was. */
export async function finishAttempt(tx: Tx, attemptId: number, set: Partial<Attempt>): Promise<boolean> {
  const done = await tx
    .update(autopayAttempts)
    .set(set)
    .where(and(eq(autopayAttempts.id, attemptId), eq(autopayAttempts.status, 'PENDING')))
    .returning({ id: autopayAttempts.id });
  return done.length > 0;
}

/** Frees the lines the attempt collects. */
export async function releaseLines(tx: Tx, attemptId: number) {
  await tx.update(purchases).set({ collectingAttemptId: null }).where(eq(purchases.collectingAttemptId, attemptId));
}

/** The lines of `ids` still unpaid. */
export const unpaidAmong = (tx: Tx, ids: number[]) =>
  tx
    .select({ id: purchases.id, price: purchases.price })
    .from(purchases)
    .where(and(inArray(purchases.id, ids), eq(purchases.status, 'UNPAID')));

/** The attempt's surplus if it is still owed, with the account it goes back to and its statement's month. */
export async function owedSurplusOf(ex: Executor, attemptId: number) {
  const [owed] = await ex
    .select({
      attempt: autopayAttempts,
      account: customers.account,
      bankCode: customers.accountName,
      month: statements.month,
    })
    .from(autopayAttempts)
    .innerJoin(customers, eq(customers.id, autopayAttempts.customerId))
    .innerJoin(statements, eq(statements.id, autopayAttempts.statementId))
    .where(
      and(
        eq(autopayAttempts.id, attemptId),
        sql`${autopayAttempts.surplus} > 0`,
        isNull(autopayAttempts.surplusRefundedAt),
      ),
    );
  return owed;
}

/** An attempt's surplus still owed, as `owedSurplusOf` reads it. */
export type OwedSurplus = NonNullable<Awaited<ReturnType<typeof owedSurplusOf>>>;

/** Records the attempt's surplus as given back at `now`; false when it already was. */
export async function markSurplusRefunded(tx: Tx, attemptId: number, now: Date): Promise<boolean> {
  const [marked] = await tx
    .update(autopayAttempts)
    .set({ surplusRefundedAt: now })
    .where(and(eq(autopayAttempts.id, attemptId), isNull(autopayAttempts.surplusRefundedAt)))
    .returning({ id: autopayAttempts.id });
  return marked !== undefined;
}

/** The attempts whose surplus is still owed, oldest first. */
export async function owedSurplusIds(ex: Executor): Promise<number[]> {
  const owed = await ex
    .select({ id: autopayAttempts.id })
    .from(autopayAttempts)
    .where(and(sql`${autopayAttempts.surplus} > 0`, isNull(autopayAttempts.surplusRefundedAt)))
    .orderBy(asc(autopayAttempts.id));
  return owed.map((row) => row.id);
}
