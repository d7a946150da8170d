import type { DomainEvent } from '@ohgood/contract/domain-events';
import { kstMonth } from '@ohgood/contract/kst';
import type { FinalResult } from '@ohgood/contract/payments';
import { type SQL, sql } from 'drizzle-orm';
import { type CtePart, withParts } from '../../db/cte';
import { idempotencyKeys, paymentRequests, purchases } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import { eventsInsertQuery, type TimedEvent } from '../../events/record-event';
import { openStatementsQuery } from '../bills/statements';
import { POINT_REASONS, type PointEntry, pointPostingParts } from '../points/ledger';

/**
 * The one writer of purchases (ADR 0112): a final writes its payment here, and so do the demo seed and the test
 * fixtures, so a demo purchase is written, and earns, exactly as a real one. Every write of one call is one
 * statement built from the mechanics' own parts: the stored answers, the statements opened or reopened
 * (`openStatementsQuery`), the requests marked PAID, the purchases, the point postings (`pointPostingParts`) and
 * the domain events. The caller has locked the customers and requests (db/tx.ts) and decided each payment.
 */

/** The scope of the answers stored for a final's replays and under a caller's Idempotency-Key. */
export const FINAL_SCOPE = 'payment-final';

/** Earned points (docs/rules/payments.md#P10): floor(owed × rate%), in integers (0.2 % → 2 per mille). */
export function earnedPoints(owed: number, pointPercent: number): number {
  return Math.floor((owed * Math.round(pointPercent * 10)) / 1000);
}

/** One decided payment of an ACTIVE request its customer reserved. */
export interface PaymentWrite {
  /** The purchase's id, drawn beforehand (`newPaymentIds`) so the answer and events can name it. */
  paymentId: number;
  customerId: number;
  request: { id: string; merchantId: number; requestName: string; totalPrice: number };
  pointUsed: number;
  pointEarned: number;
  at: Date;
  /** The answer a replay of this final gets; null for a payment no caller waits for (the seed's). */
  answer: FinalResult | null;
  /** The caller's Idempotency-Key (`key:<key>`) and the hash of the call it answers. */
  callerKey: { key: string; requestHash: string } | null;
}

/** `count` purchase ids, in one round trip. */
export async function newPaymentIds(tx: Tx, count: number): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`select nextval(pg_get_serial_sequence('purchases', 'id'))::int as id from generate_series(1, ${count}::int)`,
  );
  return rows.map((row) => row.id);
}

/** A payment's point movements, use first: the ledger rows `pointPostingParts` writes. */
function pointEntries(payment: PaymentWrite): PointEntry[] {
  const ref = {
    customerId: payment.customerId,
    refType: 'purchase' as const,
    refId: String(payment.paymentId),
    at: payment.at,
  };
  const entries: PointEntry[] = [];
  if (payment.pointUsed > 0) {
    entries.push({
      ...ref,
      amount: -payment.pointUsed,
      reason: POINT_REASONS.paymentUse,
      idempotencyKey: `purchase:${payment.paymentId}:use`,
    });
  }
  if (payment.pointEarned > 0) {
    entries.push({
      ...ref,
      amount: payment.pointEarned,
      reason: POINT_REASONS.paymentEarn,
      idempotencyKey: `purchase:${payment.paymentId}:earn`,
    });
  }
  return entries;
}

/** payment.completed and one points.posted per movement, with the balance after it (from `balances`). */
function paymentEvents(payment: PaymentWrite, balances: Map<number, number>): TimedEvent[] {
  const { customerId, request, pointUsed, pointEarned, at } = payment;
  const events: DomainEvent[] = [
    {
      type: 'payment.completed',
      customerId,
      paymentId: payment.paymentId,
      requestId: request.id,
      merchantId: request.merchantId,
      requestName: request.requestName,
      totalPrice: request.totalPrice,
      pointUsed,
      price: request.totalPrice - pointUsed,
      pointEarned,
      month: kstMonth(at),
    },
  ];
  for (const entry of pointEntries(payment)) {
    const balance = (balances.get(customerId) ?? 0) + entry.amount;
    balances.set(customerId, balance);
    const { amount, reason, refType, refId, idempotencyKey: key } = entry;
    events.push({ type: 'points.posted', customerId, amount, reason, refType, refId, balance, key });
  }
  return events.map((event) => ({ event, at }));
}

/** The answers stored for replays: under the request, and under the caller's key when it sent one. */
function answerRows(payments: readonly PaymentWrite[]) {
  return payments.flatMap(({ customerId, request, answer, callerKey, at }) => {
    if (!answer) return [];
    const base = { customerId, scope: FINAL_SCOPE, response: answer, createdAt: at };
    const rows = [{ ...base, key: `request:${request.id}`, requestHash: null as string | null }];
    if (callerKey) rows.push({ ...base, key: callerKey.key, requestHash: callerKey.requestHash });
    return rows;
  });
}

/**
 * Writes `payments` in one statement. `balancesBefore`: each customer's point balance before them, read under
 * the customer's lock (for the events' balances; the ledger moves the stored balance itself). Throws if a
 * request was not ACTIVE: the caller decided on a locked read, so that is a bug, and the transaction fails.
 */
export async function writePayments(
  tx: Tx,
  payments: readonly PaymentWrite[],
  balancesBefore: ReadonlyMap<number, number>,
): Promise<void> {
  if (payments.length === 0) return;
  const balances = new Map(balancesBefore);
  const parts: CtePart[] = [];
  const add = (name: string, query: { getSQL(): SQL } | undefined) => {
    if (query) parts.push({ name, query: query.getSQL() });
  };
  const answers = answerRows(payments);
  if (answers.length > 0) add('answers', tx.insert(idempotencyKeys).values(answers));
  add(
    'opened',
    openStatementsQuery(
      tx,
      payments.map((p) => ({ customerId: p.customerId, month: kstMonth(p.at) })),
    ),
  );
  parts.push({
    name: 'paid',
    query: sql`update ${paymentRequests} set status = 'PAID', paid_at = v.at, closed_at = v.at
      from unnest(${sql.param(payments.map((p) => p.request.id))}::uuid[],
        ${sql.param(payments.map((p) => p.at.toISOString()))}::timestamptz[]) as v(id, at)
      where ${paymentRequests.id} = v.id and ${paymentRequests.status} = 'ACTIVE'
      returning ${paymentRequests.id}`,
  });
  add(
    'bought',
    tx.insert(purchases).values(
      payments.map((p) => ({
        id: p.paymentId,
        customerId: p.customerId,
        merchantId: p.request.merchantId,
        requestId: p.request.id,
        requestName: p.request.requestName,
        totalPrice: p.request.totalPrice,
        pointUsed: p.pointUsed,
        price: p.request.totalPrice - p.pointUsed,
        pointEarned: p.pointEarned,
        statementMonth: kstMonth(p.at),
        createdAt: p.at,
      })),
    ),
  );
  const entries = payments.flatMap(pointEntries);
  if (entries.length > 0) parts.push(...pointPostingParts(tx, entries));
  add(
    'events',
    eventsInsertQuery(
      tx,
      payments.flatMap((p) => paymentEvents(p, balances)),
    ),
  );
  const [row] = await rowsOf<{ paid: number }>(tx, withParts(parts, sql`select count(*)::int as paid from paid`));
  if (row?.paid !== payments.length) {
    throw new Error(`payment write found ${row?.paid ?? 0} of ${payments.length} requests ACTIVE`);
  }
}
