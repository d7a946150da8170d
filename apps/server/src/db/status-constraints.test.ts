import { GRADE_POINTS } from '@ohgood/contract/grades';
import { LIMITS } from '@ohgood/contract/limits';
import { PAYMENT_REQUEST_STATUSES, PURCHASE_STATUSES } from '@ohgood/contract/payments';
import { POINT_REASON_CODES } from '@ohgood/contract/point-reasons';
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

/** A CHECK constraint's definition, read back from PostgreSQL's catalogue. */
async function constraintDef(name: string): Promise<string> {
  const { rows } = await database.pool.query<{ def: string }>(
    `select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1`,
    [name],
  );
  return rows[0]?.def ?? '';
}

/** The values an enum CHECK constraint accepts. */
async function allowedValues(constraint: string): Promise<string[]> {
  return [...(await constraintDef(constraint)).matchAll(/'([A-Z_]+)'/g)].map((m) => m[1] ?? '').sort();
}

const allowedStatuses = (table: string) => allowedValues(`${table}_status_check`);

describe('status columns (migration 0008)', () => {
  it('accept exactly the contract enums', async () => {
    expect(await allowedStatuses('payment_requests')).toEqual([...PAYMENT_REQUEST_STATUSES].sort());
    expect(await allowedStatuses('purchases')).toEqual([...PURCHASE_STATUSES].sort());
    expect(await allowedStatuses('shorts')).toEqual([...PROCESSING_STATUSES].sort());
  });
});

describe('point ledger reasons (migration 0009)', () => {
  it('accept exactly the contract enum', async () => {
    expect(await allowedValues('point_ledger_reason_check')).toEqual([...POINT_REASON_CODES].sort());
  });
});

/** The [low, high] of a `between` CHECK constraint (PostgreSQL shows it as `>= low AND <= high`). */
async function range(constraint: string): Promise<number[] | undefined> {
  return (await constraintDef(constraint))
    .match(/>= (\d+)\).*<= (\d+)\)/)
    ?.slice(1)
    .map(Number);
}

describe('ranges the database repeats', () => {
  it('match the contract constants', async () => {
    expect(await range('customers_grade_point_range')).toEqual([GRADE_POINTS.min, GRADE_POINTS.max]);
    expect(await range('short_watch_daily_cap')).toEqual([0, LIMITS.dailyWatchPointLimit]);
    expect(await range('payment_requests_total_price_range')).toEqual([1, LIMITS.totalPriceMax]);
  });
});
