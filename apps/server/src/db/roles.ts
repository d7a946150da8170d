import pg from 'pg';
import { JOB_QUEUE_SCHEMA } from './job-queue-schema';

/**
 * The two database roles (docs/deploy.md, "Database roles"):
 *   - the owner runs migrations and owns every table, function and sequence;
 *   - the runtime role, which the app's pool connects as, owns nothing: only the DML it needs, no DDL, and
 *     no UPDATE, DELETE or TRUNCATE on the append-only audit log. Not being an owner or a superuser, it can
 *     neither disable the audit log's triggers nor set `session_replication_role` to skip them.
 * The embedded default creates both itself; with DATABASE_URL an operator creates them once.
 */
export const OWNER_ROLE = 'ohgood_owner';
export const RUNTIME_ROLE = 'ohgood_app';

/** Tables the runtime role may only insert into and read. */
const APPEND_ONLY = [
  'audit_log',
  'autopay_consents',
  'contact_notes',
  'ledger_entries',
  'ledger_lines',
  'merchant_portal_actions',
  'settlement_lines',
];

/**
 * Settlements: never removed, and the runtime role may update only a payout's own columns, never the amounts
 * fixed at close (docs/rules/settlement.md#M4; a trigger also refuses any change to a final one).
 */
const SETTLEMENT_PAYOUT_COLUMNS = [
  'status',
  'paid_at',
  'payout_bank',
  'payout_account',
  'attempts',
  'claimed_until',
  'next_try_at',
  'last_result',
];

/**
 * Schemas the app's objects live in: its tables, drizzle's record of applied migrations, and the job queue's
 * (installed by its own migrator, db/job-queue-schema.ts).
 */
const APP_SCHEMAS = ['public', 'drizzle', JOB_QUEUE_SCHEMA];

type Runner = Pick<pg.ClientBase, 'query'>;
const { escapeIdentifier, escapeLiteral } = pg;

/**
 * Statements sent as one query: PostgreSQL runs them as one transaction, so a start waits for one round trip
 * and one commit's flush instead of one of each per statement (a GRANT rewrites its objects' catalog rows even
 * when nothing changes, and on the durable embedded cluster each commit waited for the disk: ~0.45 s of a
 * start for the grants alone, docs/performance.md). No parameters: every value is escaped into the text.
 */
async function asOneTransaction(runner: Runner, statements: string[]): Promise<void> {
  await runner.query(statements.join(';\n'));
}

/**
 * Grants the runtime role what the app needs, run by the owner after migrations (idempotent, so every start
 * also covers tables a migration just made). Default privileges grant the same on tables later
 * migrations create, whoever applies them as the owner.
 */
export async function grantRuntimeRole(owner: Runner, runtime: string): Promise<void> {
  const role = escapeIdentifier(runtime);
  const statements = [
    `grant usage on schema public to ${role}`,
    `grant select, insert, update, delete on all tables in schema public to ${role}`,
    `grant usage, select, update on all sequences in schema public to ${role}`,
    `grant execute on all functions in schema public to ${role}`,
    `alter default privileges in schema public grant select, insert, update, delete on tables to ${role}`,
    `alter default privileges in schema public grant usage, select, update on sequences to ${role}`,
    `alter default privileges in schema public grant execute on functions to ${role}`,
    // Append-only: inserted and read, never changed or emptied (their triggers refuse it for owners too):
    // the audit log, the customers' consents to autopay, the ledger's journal and merchant portal actions.
    ...APPEND_ONLY.map((table) => `revoke update, delete, truncate on ${table} from ${role}`),
    // The job queue: its worker adds, takes, completes and fails jobs through the library's functions and
    // tables; the schema itself changes only at migrate time, as the owner.
    ...queueGrants(escapeIdentifier(JOB_QUEUE_SCHEMA), role),
    // Revoking the table's UPDATE also revokes its columns', so the columns are granted again after it.
    `revoke update, delete, truncate on settlements from ${role}`,
    `grant update (${SETTLEMENT_PAYOUT_COLUMNS.join(', ')}) on settlements to ${role}`,
  ];
  await asOneTransaction(owner, statements);
}

/**
 * What the runtime role needs in the job queue's schema: its data and functions, no DDL. The library turns
 * row-level security on for its private tables (no policy: only their owner sees a row), so the runtime role
 * gets a policy of its own on each, made once.
 */
const queueGrants = (schema: string, role: string) => [
  `grant usage on schema ${schema} to ${role}`,
  `grant select, insert, update, delete on all tables in schema ${schema} to ${role}`,
  `grant usage, select, update on all sequences in schema ${schema} to ${role}`,
  `grant execute on all functions in schema ${schema} to ${role}`,
  `do $$ declare t record; begin
     for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
               where n.nspname = ${escapeLiteral(JOB_QUEUE_SCHEMA)} and c.relkind = 'r' and c.relrowsecurity
                 and not exists (select 1 from pg_policies p where p.schemaname = n.nspname
                                   and p.tablename = c.relname and p.policyname = 'runtime_role') loop
       execute format('create policy runtime_role on %I.%I to ${role} using (true) with check (true)',
                      ${escapeLiteral(JOB_QUEUE_SCHEMA)}, t.relname);
     end loop;
   end $$`,
];

/**
 * Run by the embedded cluster's superuser on every start: creates the two roles when missing, sets their
 * passwords (kept in the data directory), and hands the database and every object of the app's schemas
 * to the owner, so a data directory made by an older version (everything owned by the superuser) is
 * brought to the same state as a new one.
 */
export async function ensureEmbeddedRoles(
  superuser: Runner,
  database: string,
  passwords: { owner: string; runtime: string },
): Promise<void> {
  const role = (name: string, password: string) => [
    `do $$ begin
       if not exists (select 1 from pg_roles where rolname = ${escapeLiteral(name)}) then
         create role ${escapeIdentifier(name)} login;
       end if;
     end $$`,
    `alter role ${escapeIdentifier(name)} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password ${escapeLiteral(password)}`,
  ];
  const owner = escapeLiteral(OWNER_ROLE);
  const schemas = `array[${APP_SCHEMAS.map(escapeLiteral).join(', ')}]::text[]`;
  await asOneTransaction(superuser, [
    ...role(OWNER_ROLE, passwords.owner),
    ...role(RUNTIME_ROLE, passwords.runtime),
    `alter database ${escapeIdentifier(database)} owner to ${escapeIdentifier(OWNER_ROLE)}`,
    // Objects of the app's schemas still owned by someone else (an older version migrated as the superuser).
    `do $$ declare statement text; begin
       for statement in
         select format('alter schema %I owner to %I', n.nspname, ${owner}::text)
           from pg_namespace n where n.nspname = any(${schemas}) and pg_get_userbyid(n.nspowner) <> ${owner}
         union all
         select format('alter table %I.%I owner to %I', n.nspname, c.relname, ${owner}::text)
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = any(${schemas}) and c.relkind in ('r', 'p', 'v', 'm', 'f')
            and pg_get_userbyid(c.relowner) <> ${owner}
         union all
         select format('alter sequence %I.%I owner to %I', n.nspname, c.relname, ${owner}::text)
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = any(${schemas}) and c.relkind = 'S' and pg_get_userbyid(c.relowner) <> ${owner}
            and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i'))
         union all
         select format('alter routine %s owner to %I', p.oid::regprocedure, ${owner}::text)
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = any(${schemas}) and pg_get_userbyid(p.proowner) <> ${owner}
            and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
         union all
         select format('alter type %I.%I owner to %I', n.nspname, t.typname, ${owner}::text)
           from pg_type t join pg_namespace n on n.oid = t.typnamespace
          where n.nspname = any(${schemas}) and t.typtype in ('e', 'd', 'r') and pg_get_userbyid(t.typowner) <> ${owner}
            and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')
       loop
         execute statement;
       end loop;
     end $$`,
    `grant connect on database ${escapeIdentifier(database)} to ${escapeIdentifier(RUNTIME_ROLE)}`,
  ]);
}

/** True when the connection's role is a superuser: it could bypass every rule the database enforces. */
export async function isSuperuser(pool: Pick<pg.Pool, 'query'>): Promise<boolean> {
  const { rows } = await pool.query<{ super: boolean }>(
    'select rolsuper as super from pg_roles where rolname = current_user',
  );
  return rows[0]?.super === true;
}
