import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  accountVerifications,
  auditLog,
  autopayConsents,
  customers,
  notifications,
  pointLedger,
  purchases,
  rateLimitCounters,
  statements,
} from '../../db/schema';
import type { Executor, Tx } from '../../db/tx';
import { normalizeEmail } from '../auth/service';
import { failedDebitsOn } from '../autopay/failed-debits';
import { owedSql } from '../bills/statements';
import { escapeLike } from '../shorts/search';

/** The SQL of the console's customer reads and actions; the services beside it decide and shape. */

export type CustomerRow = typeof customers.$inferSelect;

/**
 * The counters that lock a customer out (docs/rules/operations.md#O5): failed logins on their email
 * (`auth/service.ts`) and failed payment codes (`payments/payments-actions.ts`), both in 10-minute windows.
 */
export const LOCKOUT_WINDOW_MS = 10 * 60 * 1000;
/**
 * A customer's own lockout counters: login failures per account and per (account, address), failed codes. A
 * counter at zero is none: an attempt that succeeded gave back the place it claimed (`db/rate-limit-counters.ts`).
 */
const lockoutKeys = (customer: Pick<CustomerRow, 'id' | 'email'>) =>
  and(
    or(
      inArray(rateLimitCounters.key, [`login-fail:account:${customer.email}`, `pay-code-fail:${customer.id}`]),
      like(rateLimitCounters.key, `login-fail:account-ip:${escapeLike(customer.email)}:%`),
    ),
    gt(rateLimitCounters.count, 0),
  );

const SEARCH_LIMIT = 20;

/**
 * What the console's search takes (docs/rules/operations.md#O4): an e-mail (with '@') matches exactly; digits
 * (hyphens and spaces allowed) match a customer id, the linked account or an account ever consented to or
 * verified for autopay, exactly; anything else is part of a name. No phone number is kept, so none is searched. No part of an e-mail or an account finds anyone, so a mask cannot be completed by trying its pieces.
 */
export function searchQueryOf(q: string): { kind: 'email' | 'number' | 'name'; normalized: string; where: SQL } {
  const term = q.trim();
  if (term.includes('@')) {
    const email = normalizeEmail(term);
    return { kind: 'email', normalized: email, where: eq(customers.email, email) };
  }
  const digits = term.replace(/[\s-]/g, '');
  if (/^\d+$/.test(digits)) {
    const byId = digits.length <= 9 ? [eq(customers.id, Number(digits))] : [];
    return {
      kind: 'number',
      normalized: digits,
      where: or(...byId, eq(customers.account, digits), debitAccountWas(digits)) as SQL,
    };
  }
  return { kind: 'name', normalized: term, where: ilike(customers.name, `%${escapeLike(term)}%`) };
}

/**
 * The customer consented to be debited from, or verified, the account `digits` at some time: a caller may read
 * out the account their bank debited, not the one linked now.
 */
const debitAccountWas = (digits: string) =>
  or(
    inArray(customers.id, sql`(select customer_id from ${autopayConsents} where account = ${digits})`),
    inArray(customers.id, sql`(select customer_id from ${accountVerifications} where account = ${digits})`),
  );

export const searchCustomers = (ex: Executor, where: SQL) =>
  ex.select().from(customers).where(where).orderBy(asc(customers.id)).limit(SEARCH_LIMIT);

export async function findCustomer(ex: Executor, customerId: number): Promise<CustomerRow | undefined> {
  const [row] = await ex.select().from(customers).where(eq(customers.id, customerId));
  return row;
}

/** Everything the console's customer page lists beside the customer row, read for `month` as of `now`. */
export async function customerActivity(db: Db, customer: CustomerRow, month: string, now: Date) {
  const customerId = customer.id;
  const [owed] = await db.select({ owed: owedSql(customerId, month) }).from(sql`(values (1)) as one (x)`);
  const lines = await db
    .select()
    .from(purchases)
    .where(eq(purchases.customerId, customerId))
    .orderBy(desc(purchases.id))
    .limit(200);
  const months = await db
    .select()
    .from(statements)
    .where(eq(statements.customerId, customerId))
    .orderBy(desc(statements.month));
  const points = await db
    .select()
    .from(pointLedger)
    .where(eq(pointLedger.customerId, customerId))
    .orderBy(desc(pointLedger.id))
    .limit(50);
  const notices = await db
    .select()
    .from(notifications)
    .where(eq(notifications.customerId, customerId))
    .orderBy(desc(notifications.id))
    .limit(50);
  const lockouts = await db
    .select()
    .from(rateLimitCounters)
    .where(and(lockoutKeys(customer), gt(rateLimitCounters.windowStart, new Date(now.getTime() - LOCKOUT_WINDOW_MS))));
  const staffChanges = await db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.targetType, 'customer'),
        eq(auditLog.targetId, String(customerId)),
        inArray(auditLog.action, ['customer.suspend', 'customer.lift']),
      ),
    )
    .orderBy(asc(auditLog.id));
  return { owed: Number(owed?.owed ?? 0), lines, months, points, notices, lockouts, staffChanges };
}

/** Drops the customer's lockout counters; answers what they were. */
export const deleteLockouts = (tx: Tx, customer: Pick<CustomerRow, 'id' | 'email'>) =>
  tx
    .delete(rateLimitCounters)
    .where(lockoutKeys(customer))
    .returning({ key: rateLimitCounters.key, count: rateLimitCounters.count });

export async function updateCustomer(
  tx: Tx,
  customerId: number,
  set: Partial<Pick<CustomerRow, 'staffSuspended' | 'overdueLifted' | 'sessionsRevokedAt' | 'creditLimit'>>,
) {
  await tx.update(customers).set(set).where(eq(customers.id, customerId));
}

export async function purchaseOwners(db: Db, paymentId: number) {
  const [purchase] = await db
    .select({ requestId: purchases.requestId, merchantId: purchases.merchantId, customerId: purchases.customerId })
    .from(purchases)
    .where(eq(purchases.id, paymentId));
  return purchase;
}

/** The console home's counts for the KST day `today`, read as of `now`. */
export async function dayFigures(db: Db, today: string, now: Date) {
  const [figures] = await db
    .select({
      payments: sql<number>`count(*) filter (where (${purchases.createdAt} at time zone 'Asia/Seoul')::date = ${today}::date)`,
      amount: sql<string>`coalesce(sum(${purchases.totalPrice}) filter (where (${purchases.createdAt} at time zone 'Asia/Seoul')::date = ${today}::date), 0)`,
      refunds: sql<number>`count(*) filter (where (${purchases.refundedAt} at time zone 'Asia/Seoul')::date = ${today}::date)`,
      refunded: sql<string>`coalesce(sum(${purchases.totalPrice}) filter (where (${purchases.refundedAt} at time zone 'Asia/Seoul')::date = ${today}::date), 0)`,
    })
    .from(purchases)
    .where(or(gt(purchases.createdAt, new Date(now.getTime() - 2 * 86_400_000)), isNotNull(purchases.refundedAt)));
  const [overdue] = await db
    .select({ n: sql<number>`count(distinct ${statements.customerId})` })
    .from(statements)
    .innerJoin(
      purchases,
      and(eq(purchases.customerId, statements.customerId), eq(purchases.statementMonth, statements.month)),
    )
    .where(and(isNotNull(statements.overdueAt), eq(purchases.status, 'UNPAID')));
  return {
    payments: { count: Number(figures?.payments ?? 0), amount: Number(figures?.amount ?? 0) },
    refunds: { count: Number(figures?.refunds ?? 0), amount: Number(figures?.refunded ?? 0) },
    overdueCustomers: Number(overdue?.n ?? 0),
    autopayFailures: await failedDebitsOn(db, today),
  };
}
