// The commit habits CONTRIBUTING.md asks for, checked on the commits after the newest release
// (CHANGELOG.md) or after HABITS_SINCE, whichever is later, so history from before the habits never fails it
// (run by `npm run lint`): a subject of at most 72 characters, a body saying why, a migration alone in its
// commit (the SQL, the journal and the hashes, nothing else), and merges that carry no edits of their own.
// HABITS_BASE=<commit> checks from another base. Plain Node, no dependencies.
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { latestRelease } from './releases.mjs';

/** The last commit of main before the habits were written down; nothing older is judged. */
export const HABITS_SINCE = '17e78e76198a4c9cd2f2b732b6f4dd4297decee4';
export const SUBJECT_MAX = 72;
const MIGRATION_SQL = /^apps\/server\/src\/db\/migrations\/[^/]+\.sql$/;
const MIGRATION_COMPANIONS = new Set([
  'apps/server/src/db/migrations/meta/_journal.json',
  'scripts/migration-hashes.json',
]);

/**
 * What is wrong with one commit, given its subject, body, parents and changed files; `ownEdits` is the
 * merge's combined diff against all its parents (empty when it only joins them).
 */
export function commitProblems({ hash, subject, body, parents, files, ownEdits = '' }) {
  const at = `${hash.slice(0, 10)} "${subject.length > 50 ? `${subject.slice(0, 47)}...` : subject}"`;
  const problems = [];
  if (subject.length > SUBJECT_MAX)
    problems.push(`${at}: subject is ${subject.length} characters (at most ${SUBJECT_MAX})`);
  if (parents.length > 1) {
    if (ownEdits.trim() !== '')
      problems.push(`${at}: a merge with edits of its own (resolve on the branch, then merge)`);
    return problems;
  }
  if (body.trim() === '') problems.push(`${at}: no body (say why in a paragraph after the subject)`);
  if (files.some((f) => MIGRATION_SQL.test(f))) {
    const others = files.filter((f) => !MIGRATION_SQL.test(f) && !MIGRATION_COMPANIONS.has(f));
    if (others.length > 0) problems.push(`${at}: a migration shares its commit with ${others.join(', ')}`);
  }
  return problems;
}

const git = (root, args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
const isAncestor = (root, a, b) => {
  try {
    git(root, ['merge-base', '--is-ancestor', a, b]);
    return true;
  } catch {
    return false;
  }
};

/** The commit after which habits are judged: HABITS_BASE, or the later of the newest release and HABITS_SINCE. */
export function habitsBase(root, env = process.env) {
  if (env.HABITS_BASE) return env.HABITS_BASE;
  const release = latestRelease(root).commit;
  return isAncestor(root, HABITS_SINCE, release) ? release : HABITS_SINCE;
}

/** Every broken habit in `base..HEAD`, or a note when the history is not there to read. */
export function habitViolations(root, base = habitsBase(root)) {
  try {
    git(root, ['cat-file', '-e', `${base}^{commit}`]);
  } catch {
    return { problems: [], note: `commit habits: ${base.slice(0, 10)} is not in this clone, nothing checked` };
  }
  const SEP = '\u001f';
  const log = git(root, ['log', '--format=%H%x1f%P%x1f%s%x1f%b%x1e', `${base}..HEAD`]);
  const problems = [];
  let count = 0;
  for (const record of log.split('\u001e')) {
    if (record.trim() === '') continue;
    const [hash, parents, subject, body] = record.replace(/^\n/, '').split(SEP);
    const parentList = parents.split(' ').filter(Boolean);
    const merge = parentList.length > 1;
    const files = merge
      ? []
      : git(root, ['diff-tree', '--no-commit-id', '--name-only', '-r', hash]).split('\n').filter(Boolean);
    const ownEdits = merge ? git(root, ['diff-tree', '--cc', '--no-commit-id', hash]) : '';
    problems.push(...commitProblems({ hash, subject, body, parents: parentList, files, ownEdits }));
    count += 1;
  }
  return { problems, note: `commit habits: ${count} commits after ${base.slice(0, 10)} checked` };
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const { problems, note } = habitViolations(root);
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log(note);
}
