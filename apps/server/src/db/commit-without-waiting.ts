import { sql } from 'drizzle-orm';

/**
 * A FROM item that makes the statement's own transaction commit without waiting for the disk
 * (`synchronous_commit = off`, transaction-local). For scratch state and watch starts only, never for money,
 * points or grade (ADRs 0140, 0162): PostgreSQL answers the commit before its WAL is flushed, the flush
 * follows within `wal_writer_delay`, and the transaction stays atomic. Setting it inside the statement that
 * writes saves the round trip a `set local` of its own would cost.
 */
export const commitWithoutWaitingForDisk = sql`(select set_config('synchronous_commit', 'off', true)) as commit_without_waiting_for_disk`;
