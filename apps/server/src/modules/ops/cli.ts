import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../db/client';
import { systemClock } from '../../lib/clock';
import { loadConfig } from '../../lib/config';
import { safeErrorMessage } from '../../lib/safe-error';
import { enrolmentPath } from './enrolment-link';
import { createStaffAccount } from './staff-admin';

const USAGE = 'usage: npm run ops -- create-admin --email <email> --name <이름>';

/**
 * `npm run ops -- create-admin --email … --name …` (docs/rules/operations.md#O3): the first admin, made on the
 * server itself. It prints a one-time enrolment link (a day long) where the admin sets a password and scans
 * the TOTP QR; the audit trail records the command as the actor.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' } },
  });
  const email = values.email?.trim().toLowerCase() ?? '';
  const name = values.name?.trim() ?? '';
  if (positionals[0] !== 'create-admin' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || !name) throw new Error(USAGE);
  const config = loadConfig();
  // Same default as `npm start`: the repository's ./data, whatever directory npm runs this script in.
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../../../..');
  const dataDir = process.env.DATA_DIR ? resolve(config.DATA_DIR) : join(root, 'data');
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    migrationDatabaseUrl: config.MIGRATION_DATABASE_URL,
    dataDir,
  });
  try {
    const created = await createStaffAccount(
      database.db,
      systemClock,
      { email, name, role: 'ADMIN' },
      { staffId: null, name: 'npm run ops', role: 'SYSTEM' },
      'create-admin on the server',
    );
    const origin = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
    console.log(`admin ${email} created (staff #${created.staffId}).`);
    console.log(`One-time enrolment link (valid 24 h): ${origin}${enrolmentPath(created.enrolmentToken)}`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  // Never the raw error: a failed query's message carries its parameters.
  console.error(error instanceof Error ? safeErrorMessage(error.message) : 'ops command failed');
  process.exit(1);
});
