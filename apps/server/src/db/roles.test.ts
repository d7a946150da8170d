import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, createDatabaseIfMissing, type Database, openDatabase } from './client';
import { startEmbeddedPostgres } from './embedded';
import { OWNER_ROLE, RUNTIME_ROLE } from './roles';
import { rowsOf } from './tx';

/*
 * The embedded default on a data directory made by an older version (its tables migrated and owned by the
 * cluster's superuser), opened by today's code twice: the roles are set up, ownership handed to the owner,
 * and the app's own pool, the runtime role, cannot alter, disable or bypass the audit log.
 */
let dataDir: string;
let database: Database;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ohgood-roles-'));
  chmodSync(dataDir, 0o755); // run as root, the server runs as user postgres and must reach its directory
  const older = await startEmbeddedPostgres({ dataDir, durable: false });
  await createDatabaseIfMissing(older.url('postgres'), 'ohgood');
  const migrated = await connectDatabase(older.url('ohgood'), { kind: 'embedded', migrate: true, max: 1 });
  await migrated.close();
  await older.stop();
  // Opened twice: setting the roles up is idempotent.
  await (await openDatabase({ dataDir })).close();
  database = await openDatabase({ dataDir });
}, 120_000);
afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The SQLSTATE a statement fails with on the app's pool, or 'ok'. */
const refusal = (statement: string) =>
  database.pool.query(statement).then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

it("the app's pool comes back with its first connection already open (opened while the owner migrated)", () => {
  // Checked before any statement here: the seed that follows a start takes this connection without a handshake.
  expect({ total: database.pool.totalCount, idle: database.pool.idleCount }).toEqual({ total: 1, idle: 1 });
});

it('the app connects as the runtime role, which is no superuser and owns nothing', async () => {
  const [me] = await rowsOf<{ user: string; super: boolean; owned: number }>(
    database.db,
    sql`select current_user as user, r.rolsuper as super,
          (select count(*)::int from pg_class c where c.relowner = r.oid) as owned
        from pg_roles r where r.rolname = current_user`,
  );
  expect(me).toEqual({ user: RUNTIME_ROLE, super: false, owned: 0 });
  const owners = await rowsOf<{ owner: string }>(
    database.db,
    sql`select distinct pg_get_userbyid(c.relowner) as owner from pg_class c
        join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'`,
  );
  expect(owners).toEqual([{ owner: OWNER_ROLE }]);
});

it('the runtime role cannot alter, disable, empty or bypass the audit log', async () => {
  const insufficientPrivilege = '42501';
  expect(await refusal('alter table audit_log disable trigger all')).toBe(insufficientPrivilege);
  expect(await refusal('alter table audit_log disable trigger audit_log_no_update_delete')).toBe(insufficientPrivilege);
  expect(await refusal('drop table audit_log')).toBe(insufficientPrivilege);
  expect(await refusal('set session_replication_role = replica')).toBe(insufficientPrivilege);
  expect(await refusal('truncate audit_log')).toBe(insufficientPrivilege);
  expect(await refusal('delete from audit_log')).toBe(insufficientPrivilege);
  expect(await refusal('update audit_log set id = id')).toBe(insufficientPrivilege);
  expect(await refusal('create table intruder (id int)')).toBe(insufficientPrivilege);
  expect(await refusal('alter role current_user superuser')).toBe(insufficientPrivilege);
  // The other append-only records: consents to autopay, contact notes, the ledger's journal, portal actions.
  for (const table of [
    'autopay_consents',
    'contact_notes',
    'ledger_entries',
    'ledger_lines',
    'merchant_portal_actions',
  ]) {
    expect(await refusal(`truncate ${table}`)).toBe(insufficientPrivilege);
    expect(await refusal(`delete from ${table}`)).toBe(insufficientPrivilege);
    expect(await refusal(`alter table ${table} disable trigger all`)).toBe(insufficientPrivilege);
  }
  // A settlement's amounts are fixed at close: the runtime role may update only its payout's columns.
  expect(await refusal('update settlements set net = net')).toBe(insufficientPrivilege);
  expect(await refusal('delete from settlements')).toBe(insufficientPrivilege);
  expect(await refusal('truncate settlements')).toBe(insufficientPrivilege);
  expect(await refusal("update settlements set last_result = 'x' where false")).toBe('ok');
  for (const verb of ['truncate', 'delete from']) {
    expect(await refusal(`${verb} settlement_lines`)).toBe(insufficientPrivilege);
  }
  // What the app needs still works: reading it, and the DML of every other table.
  expect(await refusal('select count(*) from audit_log')).toBe('ok');
  expect(await refusal('update customers set name = name where false')).toBe('ok');
});

it('a new data directory, opened once, has everything its migrations made owned by the owner', async () => {
  const fresh = mkdtempSync(join(tmpdir(), 'ohgood-roles-new-'));
  chmodSync(fresh, 0o755);
  const opened = await openDatabase({ dataDir: fresh });
  try {
    // Made by one superuser session acting as the owner: no object may be left to the superuser for the next
    // start to hand over (the extensions' own members aside: PostgreSQL gives those to the bootstrap superuser).
    const owners = await rowsOf<{ owner: string }>(
      opened.db,
      sql`select pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname in ('public', 'drizzle', 'graphile_worker')
             and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
          union
          select pg_get_userbyid(p.proowner) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname in ('public', 'graphile_worker')
             and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
          union
          select pg_get_userbyid(nspowner) from pg_namespace where nspname in ('public', 'drizzle', 'graphile_worker')`,
    );
    expect(owners).toEqual([{ owner: OWNER_ROLE }]);
  } finally {
    await opened.close();
    rmSync(fresh, { recursive: true, force: true });
  }
}, 120_000);
