import { and, eq, sql } from 'drizzle-orm';
import { autopayAttempts } from '../../db/schema';
import type { Executor } from '../../db/tx';

/**
 * Autopay debits of the KST day `day` the bank refused (docs/rules/bills-and-grades.md#B16): the console
 * home's count and the `/metrics` gauge an alert watches for a spike.
 */
export async function failedDebitsOn(db: Executor, day: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(autopayAttempts)
    .where(and(eq(autopayAttempts.kstDate, day), eq(autopayAttempts.status, 'FAILED')));
  return Number(row?.n ?? 0);
}
