import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/*
 * The embedded default runs the migrations in its superuser's session, switched to the owner (ADR 0261): a
 * migration that changed its role back could act as the superuser. None may change the role it runs as.
 */
const migrations = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const ROLE_CHANGE = /\b(?:re)?set\s+(?:(?:local|session)\s+)?(?:role|session\s+authorization)\b/i;

it('knows a change of role when it sees one, and only then', () => {
  for (const statement of ['RESET ROLE;', 'set role postgres', 'SET LOCAL ROLE x', 'set session authorization default'])
    expect(ROLE_CHANGE.test(statement)).toBe(true);
  for (const statement of ['grant select on t to ohgood_app', "comment on role x is 'a'", 'alter table t owner to x'])
    expect(ROLE_CHANGE.test(statement)).toBe(false);
});

it('no migration changes the role it runs as', () => {
  const changing = readdirSync(migrations)
    .filter((file) => file.endsWith('.sql'))
    .filter((file) => ROLE_CHANGE.test(readFileSync(join(migrations, file), 'utf8')));
  expect(changing).toEqual([]);
});
