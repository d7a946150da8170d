import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { setupSession } from './client';

/*
 * The embedded cluster's setup session makes the roles as the superuser, then migrates as the owner (SET ROLE)
 * on the same connection. What it makes must be the owner's even when the connection is lost midway and the
 * pool opens another: never the superuser's.
 */
const { adminUrl } = inject('testDatabase');

it("runs the owner's work as the owner, on a connection it had to open again as well", async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const role = `ohgood_setup_${randomBytes(6).toString('hex')}`;
  await admin.query(`create role ${role}`);
  const setup = setupSession(adminUrl, role);
  try {
    const seen = await setup.asOwner(async (owner) => {
      const currentUser = async () =>
        (await owner.query<{ user: string }>('select current_user as user')).rows[0]?.user;
      const before = await currentUser();
      const { rows } = await owner.query<{ pid: number }>('select pg_backend_pid() as pid');
      // The connection is cut from outside, as a restart of the server's backend would.
      await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
      await owner.query('select 1').catch(() => undefined);
      const { rows: again } = await owner.query<{ pid: number }>('select pg_backend_pid() as pid');
      return { before, after: await currentUser(), reconnected: again[0]?.pid !== rows[0]?.pid };
    });
    expect(seen).toEqual({ before: role, after: role, reconnected: true });
  } finally {
    setup.end();
    await setup.pool.end().catch(() => undefined);
    await admin.query(`drop role ${role}`);
    await admin.end();
  }
});
