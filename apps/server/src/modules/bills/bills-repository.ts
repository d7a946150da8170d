import type { PointReason } from '@ohgood/contract/point-reasons';
import { and, asc, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import { customers, domainEvents, merchants, pointLedger, purchases, statements } from '../../db/schema';
import type { Executor, Tx } from '../../db/tx';

/** The SQL of a customer's bills: what they read and what they repay or extend; the services beside it decide. */

export type StatementRow = typeof statements.$inferSelect;

export async function findCustomer(db: Executor, customerId: number) {
  const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
  return customer;
}

/** What the bill status reads of the customer: suspension and the limit in force. */
export async function customerStanding(db: Executor, customerId: number) {
  const [customer] = await db
    .select({
      suspended: customers.suspended,
      staffSuspended: customers.staffSuspended,
      gradePoint: customers.gradePoint,
      creditLimit: customers.creditLimit,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  return customer;
}

export async function pointBalanceOf(db: Executor, customerId: number): Promise<number | undefined> {
  const [customer] = await db
    .select({ pointBalance: customers.pointBalance })
    .from(customers)
    .where(eq(customers.id, customerId));
  return customer?.pointBalance;
}

/**
 * The customer's latest `credit_limit.changed` fact that moved the limit (on the partial index of migration
 * 0058); risk setting the limit already in force changed nothing (and sent no notice).
 */
export async function latestLimitChange(db: Executor, customerId: number) {
  const [row] = await db
    .select({ payload: domainEvents.payload, at: domainEvents.occurredAt })
    .from(domainEvents)
    .where(
      and(
        eq(domainEvents.customerId, customerId),
        eq(domainEvents.type, 'credit_limit.changed'),
        sql`${domainEvents.payload}->>'from' <> ${domainEvents.payload}->>'to'`,
      ),
    )
    .orderBy(desc(domainEvents.id))
    .limit(1);
  return row;
}

/** The customer's unpaid lines, oldest month first. */
export async function unpaidLines(db: Executor, customerId: number) {
  return db
    .select({
      id: purchases.id,
      month: purchases.statementMonth,
      requestName: purchases.requestName,
      price: purchases.price,
      totalPrice: purchases.totalPrice,
      pointUsed: purchases.pointUsed,
      createdAt: purchases.createdAt,
    })
    .from(purchases)
    .where(and(eq(purchases.customerId, customerId), eq(purchases.status, 'UNPAID')))
    .orderBy(asc(purchases.statementMonth), asc(purchases.createdAt), asc(purchases.id));
}

export async function statementsByMonth(db: Executor, customerId: number, months: string[]) {
  if (months.length === 0) return new Map<string, StatementRow>();
  const rows = await db
    .select()
    .from(statements)
    .where(and(eq(statements.customerId, customerId), inArray(statements.month, months)));
  return new Map(rows.map((row) => [row.month, row]));
}

/** The month's lines that still count (not refunded), newest first, with their merchant's name. */
export async function monthLines(db: Executor, customerId: number, month: string) {
  return db
    .select({
      id: purchases.id,
      createdAt: purchases.createdAt,
      requestName: purchases.requestName,
      merchant: merchants.name,
      amount: purchases.price,
      point: purchases.pointEarned,
    })
    .from(purchases)
    .innerJoin(merchants, eq(merchants.id, purchases.merchantId))
    .where(
      and(eq(purchases.customerId, customerId), eq(purchases.statementMonth, month), ne(purchases.status, 'REFUNDED')),
    )
    .orderBy(desc(purchases.createdAt), desc(purchases.id));
}

/** The sum of the customer's ledger entries for `reasons` dated in [first, nextFirst) (KST dates). */
export async function pointsSumBetween(
  db: Executor,
  customerId: number,
  { first, nextFirst }: { first: string; nextFirst: string },
  reasons: PointReason[],
): Promise<number> {
  const [earned] = await db
    .select({ sum: sql<string>`coalesce(sum(${pointLedger.amount}), 0)` })
    .from(pointLedger)
    .where(
      and(
        eq(pointLedger.customerId, customerId),
        gte(pointLedger.kstDate, first),
        lt(pointLedger.kstDate, nextFirst),
        inArray(pointLedger.reason, reasons),
      ),
    );
  return Number(earned?.sum ?? 0);
}

/** The month of the customer's oldest unpaid line, or null when nothing is unpaid. */
export async function oldestUnpaidMonth(tx: Tx, customerId: number): Promise<string | null> {
  const [oldest] = await tx
    .select({ month: sql<string | null>`min(${purchases.statementMonth})` })
    .from(purchases)
    .where(and(eq(purchases.customerId, customerId), eq(purchases.status, 'UNPAID')));
  return oldest?.month ?? null;
}

export async function lockStatement(tx: Tx, customerId: number, month: string) {
  const [row] = await tx
    .select()
    .from(statements)
    .where(and(eq(statements.customerId, customerId), eq(statements.month, month)))
    .for('update');
  return row;
}

/** Marks the statement extended by the customer, unless it already is. */
export async function markExtended(tx: Tx, statementId: number, at: Date): Promise<void> {
  await tx
    .update(statements)
    .set({ extension: 'MANUAL', extendedAt: at })
    .where(and(eq(statements.id, statementId), sql`${statements.extension} is null`));
}
