import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import {
  addNewHashes,
  journalProblems,
  migrationProblems,
  recordedHashes,
} from '../../../../scripts/migration-hashes.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const MIGRATIONS = 'apps/server/src/db/migrations';

/** A copy of this repository's migrations and their recorded hashes. */
function copy(): string {
  const root = mkdtempSync(join(tmpdir(), 'migration-hashes-'));
  mkdirSync(join(root, 'scripts'));
  cpSync(join(repoRoot, MIGRATIONS), join(root, MIGRATIONS), { recursive: true });
  cpSync(join(repoRoot, 'scripts/migration-hashes.json'), join(root, 'scripts/migration-hashes.json'));
  return root;
}

it('every migration of this repository is recorded and unchanged', () => {
  expect(migrationProblems(repoRoot)).toEqual([]);
});

it('editing or removing a committed migration fails the check, and --update refuses to record it', () => {
  const root = copy();
  try {
    appendFileSync(join(root, MIGRATIONS, '0012_payment_final_apply_batch.sql'), '\n-- a late fix\n');
    rmSync(join(root, MIGRATIONS, '0005_chat.sql'));
    const expected = [
      'migration removed: 0005_chat.sql (migrations are append-only)',
      'migration changed after it was recorded: 0012_payment_final_apply_batch.sql (add a new migration instead)',
    ];
    expect(migrationProblems(root)).toEqual(expected);
    expect(migrationProblems(root, { allowNew: true })).toEqual(expected);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it('a new migration needs its hash; --update adds only the new one and leaves the recorded ones', () => {
  const root = copy();
  try {
    const before = recordedHashes(root);
    writeFileSync(join(root, MIGRATIONS, '0020_something_new.sql'), 'CREATE TABLE t (id int);\n');
    expect(migrationProblems(root)).toEqual([
      'migration without a hash: 0020_something_new.sql (run node scripts/migration-hashes.mjs --update)',
    ]);
    expect(addNewHashes(root)).toEqual(['0020_something_new.sql']);
    const after = recordedHashes(root);
    expect(Object.keys(after)).toHaveLength(Object.keys(before).length + 1);
    expect({ ...after, '0020_something_new.sql': undefined }).toMatchObject(before);
    expect(migrationProblems(root)).toEqual([]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it('a migration slotted in before a committed one fails: databases past it would skip it', () => {
  const root = copy();
  try {
    const file = join(root, MIGRATIONS, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(file, 'utf8'));
    const committed = journal.entries.map(({ tag, when }: { tag: string; when: number }) => ({ tag, when }));
    expect(journalProblems(root, committed)).toEqual([]);
    // A branch's migration numbered below the newest committed one, merged late.
    const last = committed.at(-1);
    const late = { idx: 999, version: '7', when: last.when - 1, tag: '0039_merged_late', breakpoints: true };
    journal.entries.splice(journal.entries.length - 1, 0, late);
    writeFileSync(file, JSON.stringify(journal));
    expect(journalProblems(root, committed)).toEqual([
      `journal entry ${committed.length - 1} was ${last.tag}: committed entries stay first (give new migrations the next number)`,
    ]);
    // Appended instead, but with an older `when`.
    journal.entries = [...committed.map((e: object) => ({ ...e })), late];
    writeFileSync(file, JSON.stringify(journal));
    expect(journalProblems(root, committed)).toEqual([
      `journal: 0039_merged_late is not newer than ${last.tag} (databases past it would skip it)`,
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
