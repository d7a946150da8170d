import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type Executor, rowsOf, type Tx, withTx } from '../db/tx';

/** The `synchronous_commit` in force where `executor` runs its next statement. */
export const commitSetting = async (executor: Executor) =>
  (await rowsOf<{ setting: string }>(executor, sql`select current_setting('synchronous_commit') as setting`))[0]
    ?.setting;

/** The server's own `synchronous_commit`, what a transaction starts from. */
export const serverCommitSetting = async (db: Db) =>
  (
    await rowsOf<{ value: string }>(
      db,
      sql`select reset_val as value from pg_settings where name = 'synchronous_commit'`,
    )
  )[0]?.value;

/**
 * Runs `write` in a transaction that starts as on a durable server (the test cluster itself commits without
 * waiting for the disk): the setting before and after it, and what `write` returned.
 */
export async function commitSettingsAround<T>(db: Db, write: (tx: Tx) => Promise<T>) {
  return withTx(db, async (tx) => {
    await tx.execute(sql`set local synchronous_commit = on`);
    const before = await commitSetting(tx);
    const result = await write(tx);
    return { before, after: await commitSetting(tx), result };
  });
}
