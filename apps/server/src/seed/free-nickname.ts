import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers } from '../db/schema';

/**
 * The wanted demo nickname, or the same with a number when a real customer already holds it (nicknames are
 * unique case- and width-insensitively, migration 0030): seeding demo data never fails on a taken name.
 */
export async function freeNickname(db: Db, wanted: string): Promise<string> {
  for (let n = 0; n < 100; n++) {
    const candidate = n === 0 ? wanted : `${wanted}${n + 1}`;
    const [taken] = await db
      .select({ id: customers.id })
      .from(customers)
      .where(sql`lower(normalize(${customers.nickname}, NFKC)) = lower(normalize(${candidate}::text, NFKC))`);
    if (!taken) return candidate;
  }
  return `${wanted}${Date.now() % 100_000}`;
}
