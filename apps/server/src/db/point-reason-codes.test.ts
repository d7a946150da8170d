import { readFile } from 'node:fs/promises';
import { POINT_REASON_CODES, POINT_REASON_LABELS } from '@ohgood/contract/point-reasons';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../test/test-database';
import { openTestDatabase } from '../test/test-database';

let database: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  database = await openTestDatabase();
  // Rewinding a migration is the owner's work: the app's own role may not change the schema.
  pool = new pg.Pool({ connectionString: database.ownerUrl, max: 1 });
});
afterAll(async () => {
  await pool.end();
  await database.close();
});

const migration = new URL('./migrations/0009_point_reason_codes.sql', import.meta.url);

describe('migration 0009 (point reasons as codes)', () => {
  it('turns every label written before it into its code, and the CHECK refuses a label afterwards', async () => {
    // Back to the state before 0009: no constraint, rows carrying the Korean labels.
    await pool.query('alter table point_ledger drop constraint point_ledger_reason_check');
    const {
      rows: [customer],
    } = await pool.query<{ id: number }>(
      `insert into customers (email, password_hash, name, birth, account, account_name, nickname, point_balance)
       values ('reasons@example.com', 'x', '홍길동', '1990-01-01', '1234', '국민', 'reasons', 0) returning id`,
    );
    for (const [index, code] of POINT_REASON_CODES.entries()) {
      await pool.query(
        `insert into point_ledger (customer_id, amount, reason, ref_type, ref_id, kst_date, idempotency_key)
         values ($1, 1, $2, 'test', $3, '2026-11-01', $4)`,
        [customer?.id, POINT_REASON_LABELS[code], String(index), `reason-${code}`],
      );
    }

    const statements = (await readFile(migration, 'utf8')).split('--> statement-breakpoint');
    for (const statement of statements) await pool.query(statement);

    const { rows } = await pool.query<{ reason: string }>(
      'select reason from point_ledger where customer_id = $1 order by id',
      [customer?.id],
    );
    expect(rows.map((row) => row.reason)).toEqual([...POINT_REASON_CODES]);
    await expect(
      pool.query(
        `insert into point_ledger (customer_id, amount, reason, ref_type, ref_id, kst_date, idempotency_key)
         values ($1, 1, '결제 적립', 'test', 'late', '2026-11-01', 'reason-label')`,
        [customer?.id],
      ),
    ).rejects.toThrow(/point_ledger_reason_check/);
  });
});
