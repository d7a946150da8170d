import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { latestRelease } from '../../../../scripts/releases.mjs';
import { customers, purchases } from '../db/schema';
import { withTx } from '../db/tx';
import { repayLines } from '../modules/bills/bills-actions';
import { trialBalance } from '../modules/ledger/trial-balance';
import { refundPurchaseOfRequest } from '../modules/payments/refund';
import { DEMO_MERCHANTS } from '../seed/demo-merchants';
import { entriesOf, ledgerMismatches } from '../test/ledger-invariants';
import { insertPurchase } from '../test/purchase-fixture';
import { createTestDatabaseUrl, openTestDatabase } from '../test/test-database';
import { migrateLocked } from './client';

/**
 * A database of the newest release, upgraded by today's migrations, must end with the schema a fresh database
 * gets. A release is a commit named in CHANGELOG.md (ADR 0212), so the test moves forward with each release;
 * its migrations are read from git as they were committed.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const RELEASE = latestRelease(repoRoot).commit;
const MIGRATIONS = 'apps/server/src/db/migrations';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The migrations folder of `commit`, written to a temporary directory. */
function migrationsAt(commit: string): string {
  const show = (path: string) =>
    execFileSync('git', ['show', `${commit}:${path}`], { cwd: repoRoot, encoding: 'utf8' });
  const dir = mkdtempSync(join(tmpdir(), 'ohgood-release-migrations-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'meta'));
  const journal = show(`${MIGRATIONS}/meta/_journal.json`);
  writeFileSync(join(dir, 'meta/_journal.json'), journal);
  for (const tag of tagsOf(journal)) writeFileSync(join(dir, `${tag}.sql`), show(`${MIGRATIONS}/${tag}.sql`));
  return dir;
}

const tagsOf = (journal: string) => (JSON.parse(journal).entries as Array<{ tag: string }>).map((e) => e.tag);

/** Every table column, constraint, index, function, trigger and sequence of the public schema, as text. */
async function schemaOf(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ line: string }>(`
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
      || coalesce(column_default, '') || ' ' || coalesce(generation_expression, '') as line
      from information_schema.columns where table_schema = 'public'
    union all
    select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select 'index ' || indexdef from pg_indexes where schemaname = 'public'
    union all
    select 'function ' || proname || '(' || pg_get_function_identity_arguments(oid) || ') ' || md5(prosrc)
      from pg_proc where pronamespace = 'public'::regnamespace
    union all
    select 'trigger ' || tgrelid::regclass || ' ' || pg_get_triggerdef(oid)
      from pg_trigger where not tgisinternal
    union all
    select 'sequence ' || sequencename from pg_sequences where schemaname = 'public'
    order by 1`);
  return rows.map((row) => row.line);
}

it("an earlier release's database, upgraded by today's migrations, has a fresh database's schema", async () => {
  // The release's database: created empty and migrated with the release's own files.
  const target = await createTestDatabaseUrl();
  const pool = new pg.Pool({ connectionString: target.ownerUrl, max: 2 });
  cleanups.push(() => target.drop());
  cleanups.push(() => pool.end());
  // An empty database, not the migrated template: drop what the copy brought and start from nothing.
  await pool.query('drop schema public cascade; create schema public; drop schema if exists drizzle cascade');
  const releaseMigrations = migrationsAt(RELEASE);
  await migrate(drizzle(pool), { migrationsFolder: releaseMigrations });
  const release = await schemaOf(pool);
  // Today's migrations begin with the release's own, unchanged in order (they are append-only).
  const releaseTags = tagsOf(readFileSync(join(releaseMigrations, 'meta/_journal.json'), 'utf8'));
  const todayTags = tagsOf(readFileSync(join(repoRoot, MIGRATIONS, 'meta/_journal.json'), 'utf8'));
  expect(todayTags.slice(0, releaseTags.length)).toEqual(releaseTags);

  await migrateLocked(pool);
  const fresh = await openTestDatabase();
  cleanups.push(() => fresh.close());
  const upgraded = await schemaOf(pool);
  const freshSchema = await schemaOf(fresh.pool);
  expect(upgraded).toEqual(freshSchema);
  // The release's schema really was older whenever migrations came after it (0.5 lacks push_deliveries).
  if (todayTags.length > releaseTags.length) expect(release).not.toEqual(freshSchema);
  expect(upgraded.some((line) => line.startsWith('column domain_events.payload'))).toBe(true);
});

/** Today's migrations folder without the ledger's own (0070 on), as a database of the release before it had. */
function migrationsBeforeLedger(): string {
  const here = resolve(repoRoot, MIGRATIONS);
  const dir = mkdtempSync(join(tmpdir(), 'ohgood-before-ledger-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'meta'));
  const journal = JSON.parse(readFileSync(join(here, 'meta/_journal.json'), 'utf8'));
  const entries = (journal.entries as Array<{ tag: string }>).filter((entry) => entry.tag < '0070');
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const { tag } of entries) copyFileSync(join(here, `${tag}.sql`), join(dir, `${tag}.sql`));
  return dir;
}

it('money facts from before the ledger get opening entries: the books balance and agree after the upgrade', async () => {
  const target = await createTestDatabaseUrl();
  const pool = new pg.Pool({ connectionString: target.ownerUrl, max: 2 });
  cleanups.push(() => target.drop());
  cleanups.push(() => pool.end());
  await pool.query('drop schema public cascade; create schema public; drop schema if exists drizzle cascade');
  const db = drizzle(pool);
  await migrate(db, { migrationsFolder: migrationsBeforeLedger() });

  // A shop, two customers, and their history written by today's writers before the ledger existed: purchases
  // with points, one repaid and then refunded (owed back), one refunded unpaid, one still owed.
  const at = new Date('2026-11-20T03:00:00Z');
  const [a, b] = await db
    .insert(customers)
    .values(
      ['a', 'b'].map((name) => ({
        email: `${name}@upgrade.test`,
        passwordHash: 'x',
        name,
        birth: '1990-01-01',
        account: '12345678901',
        accountName: '국민',
        nickname: `upgrade-${name}`,
      })),
    )
    .returning({ id: customers.id });
  if (!a || !b) throw new Error('customers not inserted');
  // Merchants as the schema of that release holds them (today's drizzle insert names columns added later).
  for (const m of DEMO_MERCHANTS)
    await pool.query('insert into merchants (name, category) values ($1, $2)', [m.name, m.category]);
  const shop = await pool.query<{ id: number }>(
    "insert into merchants (name, category) values ('업그레이드 상점', '식비') returning id",
  );
  const merchantId = shop.rows[0]?.id ?? 0;
  await insertPurchase(db, { customerId: a.id, merchantId, totalPrice: 12_000, pointUsed: 500, at });
  const repaid = await insertPurchase(db, { customerId: a.id, merchantId, totalPrice: 3_000, pointEarned: 30, at });
  const unpaidRefund = await insertPurchase(db, { customerId: b.id, merchantId, totalPrice: 7_000, at });
  await withTx(db, (tx) => repayLines(tx, a.id, [repaid], at, 'EARLY'));
  for (const id of [repaid, unpaidRefund]) {
    const [line] = await db.select().from(purchases).where(eq(purchases.id, id));
    await withTx(db, (tx) => refundPurchaseOfRequest(tx, line?.requestId ?? '', at));
  }

  await migrateLocked(pool);
  const books = await trialBalance(db);
  expect(books.balanced).toBe(true);
  expect(books.entries).toBe(1);
  expect(books.totalDebit).toBeGreaterThan(0);
  expect(await ledgerMismatches(db)).toEqual([]);
  const [opening] = await entriesOf(db, 'opening', 'ledger-introduced');
  expect(opening?.lines).toEqual(
    expect.arrayContaining([
      { kind: 'CUSTOMER_RECEIVABLE', owner: a.id, amount: 11_500 },
      { kind: 'CUSTOMER_PAYABLE', owner: a.id, amount: -3_000 },
      { kind: 'MERCHANT_PAYABLE', owner: merchantId, amount: -12_000 },
    ]),
  );

  // After the upgrade the facts post themselves, and the books still agree.
  await insertPurchase(db, { customerId: b.id, merchantId, totalPrice: 1_000, at });
  expect(await ledgerMismatches(db)).toEqual([]);
  expect((await trialBalance(db)).balanced).toBe(true);
});
