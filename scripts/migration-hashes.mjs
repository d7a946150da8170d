// Migrations are append-only: a database that applied a migration never applies it again, so a migration edited
// after it was committed leaves some databases on the old text and others on the new one. This keeps a hash of
// every migration file (scripts/migration-hashes.json) and is run by `npm run lint`:
//   node scripts/migration-hashes.mjs           fails when a hashed file changed or went, or a file has no hash
//   node scripts/migration-hashes.mjs --update  adds the hashes of new files; refuses if a hashed one changed
// It also keeps the journal append-only: Drizzle's migrator skips a migration whose `when` is older than the
// newest one a database applied, so a migration slotted in before a committed one (a lower number, merged
// late) would never reach an existing database. The committed journal's entries must stay its first entries,
// and `when` must grow with each entry.
// Plain Node, no dependencies.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIGRATIONS = 'apps/server/src/db/migrations';
const HASHES = 'scripts/migration-hashes.json';
const JOURNAL = `${MIGRATIONS}/meta/_journal.json`;

/** The journal's entries as committed at HEAD (none outside a git checkout or before its first commit). */
function committedJournal(root) {
  try {
    const text = execFileSync('git', ['show', `HEAD:${JOURNAL}`], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    return JSON.parse(text.toString()).entries;
  } catch {
    return [];
  }
}

/** What breaks the journal's order: a committed entry moved or gone, or a `when` that does not grow. */
export function journalProblems(root, committed = committedJournal(root)) {
  const entries = JSON.parse(readFileSync(join(root, JOURNAL), 'utf8')).entries;
  const problems = [];
  committed.forEach((entry, i) => {
    if (entries[i]?.tag !== entry.tag || entries[i]?.when !== entry.when)
      problems.push(
        `journal entry ${i} was ${entry.tag}: committed entries stay first (give new migrations the next number)`,
      );
  });
  for (let i = 1; i < entries.length; i++)
    if (entries[i].when <= entries[i - 1].when)
      problems.push(
        `journal: ${entries[i].tag} is not newer than ${entries[i - 1].tag} (databases past it would skip it)`,
      );
  return problems;
}

/** sha256 of each migration file under `root`, by file name. */
export function migrationHashes(root) {
  const dir = join(root, MIGRATIONS);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex'),
      ]),
  );
}

/** The recorded hashes of `root`. */
export function recordedHashes(root) {
  const file = join(root, HASHES);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** What breaks append-only in `root`: changed or removed files, and (unless `allowNew`) files with no hash. */
export function migrationProblems(root, { allowNew = false } = {}) {
  const now = migrationHashes(root);
  const recorded = recordedHashes(root);
  const problems = [];
  for (const [name, hash] of Object.entries(recorded)) {
    if (!(name in now)) problems.push(`migration removed: ${name} (migrations are append-only)`);
    else if (now[name] !== hash)
      problems.push(`migration changed after it was recorded: ${name} (add a new migration instead)`);
  }
  if (!allowNew)
    for (const name of Object.keys(now))
      if (!(name in recorded))
        problems.push(`migration without a hash: ${name} (run node ${HASHES.replace('.json', '.mjs')} --update)`);
  return problems;
}

/** Records the hashes of files not recorded yet; never rewrites a recorded one. */
export function addNewHashes(root) {
  const recorded = recordedHashes(root);
  const added = [];
  for (const [name, hash] of Object.entries(migrationHashes(root))) {
    if (name in recorded) continue;
    recorded[name] = hash;
    added.push(name);
  }
  const sorted = Object.fromEntries(Object.entries(recorded).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(root, HASHES), `${JSON.stringify(sorted, null, 2)}\n`);
  return added;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const update = process.argv.includes('--update');
  const problems = [...migrationProblems(root, { allowNew: update }), ...journalProblems(root)];
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  if (update) {
    const added = addNewHashes(root);
    console.log(added.length > 0 ? `recorded: ${added.join(', ')}` : 'no new migrations');
  } else {
    console.log(`migrations: ${Object.keys(recordedHashes(root)).length} recorded, none changed`);
  }
}
