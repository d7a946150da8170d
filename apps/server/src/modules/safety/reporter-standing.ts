import { BLOCK_AND_REPORT, REPORT_WEIGHT, SAFETY_MSG } from '@ohgood/contract/safety-rules';
import { eq, sql } from 'drizzle-orm';
import { contentReports, customers } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { tooMany } from '../../lib/errors';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** What a reporter's standing is read from (docs/rules/shorts.md#S11). */
export interface Standing {
  /** Milliseconds since the account was made, on the app clock. */
  ageMs: number;
  /** The account was made before the reported content. */
  olderThanContent: boolean;
  /** At least one payment that was not refunded. */
  paid: boolean;
  /** Earlier reports a moderator upheld, and dismissed or restored. */
  upheld: number;
  dismissed: number;
}

/**
 * A report's weight and the part of it that may hide the item by itself, in hundredths of a trusted report.
 * Only an account a week old, with a payment, and older than the content hides anything without a moderator:
 * fresh sign-ups cost nothing to make, so their reports rank the queue and no more.
 */
export function reportWeight(standing: Standing): { weight: number; hideWeight: number } {
  const week = REPORT_WEIGHT.establishedDays * DAY_MS;
  const byAge =
    standing.ageMs < DAY_MS
      ? REPORT_WEIGHT.newerThanADay
      : standing.ageMs < week
        ? REPORT_WEIGHT.newerThanAWeek
        : REPORT_WEIGHT.established;
  const raw =
    byAge +
    (standing.paid ? REPORT_WEIGHT.withPayment : 0) +
    Math.min(standing.upheld * REPORT_WEIGHT.perUpheld, REPORT_WEIGHT.upheldMax) +
    standing.dismissed * REPORT_WEIGHT.perDismissed;
  const weight = Math.max(0, Math.min(REPORT_WEIGHT.max, raw));
  const trusted = standing.ageMs >= week && standing.paid && standing.olderThanContent;
  return { weight, hideWeight: trusted ? weight : 0 };
}

/**
 * The reporter's standing, after their rate caps are checked. Takes the reporter's own transaction lock
 * first, so parallel reports by one customer are counted one after another and never pass a cap together.
 */
export async function standingOf(tx: Tx, reporter: number, contentCreatedAt: Date, now: Date): Promise<Standing> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('content-report'), ${reporter}::int)`);
  const [counts] = await tx
    .select({
      upheld: sql<number>`(count(*) filter (where ${contentReports.outcome} = 'UPHELD'))::int`,
      dismissed: sql<number>`(count(*) filter (where ${contentReports.outcome} = 'DISMISSED'))::int`,
      lastHour: sql<number>`(count(*) filter (where ${contentReports.createdAt} > ${new Date(now.getTime() - HOUR_MS)}))::int`,
      lastDay: sql<number>`(count(*) filter (where ${contentReports.createdAt} > ${new Date(now.getTime() - DAY_MS)}))::int`,
    })
    .from(contentReports)
    .where(eq(contentReports.reporterId, reporter));
  if (counts && counts.lastDay >= BLOCK_AND_REPORT.reportsPerDay) {
    throw tooMany('TOO_MANY_REPORTS', SAFETY_MSG.reportsPerDay);
  }
  if (counts && counts.lastHour >= BLOCK_AND_REPORT.reportsPerHour) {
    throw tooMany('TOO_MANY_REPORTS', SAFETY_MSG.reportsPerHour);
  }
  const [row] = await tx
    .select({
      createdAt: customers.createdAt,
      paid: sql<boolean>`exists (select 1 from purchases p where p.customer_id = ${reporter} and p.status <> 'REFUNDED')`,
    })
    .from(customers)
    .where(eq(customers.id, reporter));
  if (!row) throw new Error(`no customer ${reporter}`);
  return {
    ageMs: now.getTime() - row.createdAt.getTime(),
    olderThanContent: row.createdAt < contentCreatedAt,
    paid: row.paid,
    upheld: counts?.upheld ?? 0,
    dismissed: counts?.dismissed ?? 0,
  };
}
