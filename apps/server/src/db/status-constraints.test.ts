import { PAYMENT_REQUEST_STATUSES, PURCHASE_STATUSES } from '@ohgood/contract/payments';
import { PROCESSING_STATUSES } from '@ohgood/contract/shorts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database';
import type { Database } from './client';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** The values a table's status CHECK constraint accepts, read back from PostgreSQL's catalogue. */
async function allowedStatuses(table: string): Promise<string[]> {
  const { rows } = await database.pool.query<{ def: string }>(
    `select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1`,
    [`${table}_status_check`],
  );
  return [...(rows[0]?.def ?? '').matchAll(/'([A-Z_]+)'/g)].map((m) => m[1] ?? '').sort();
}

describe('status columns (migration 0008)', () => {
  it('accept exactly the contract enums', async () => {
    expect(await allowedStatuses('payment_requests')).toEqual([...PAYMENT_REQUEST_STATUSES].sort());
    expect(await allowedStatuses('purchases')).toEqual([...PURCHASE_STATUSES].sort());
    expect(await allowedStatuses('shorts')).toEqual([...PROCESSING_STATUSES].sort());
  });
});
