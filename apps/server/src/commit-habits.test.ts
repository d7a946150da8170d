import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitProblems, habitViolations } from '../../../scripts/commit-habits.mjs';

const SQL = 'apps/server/src/db/migrations/0066_x.sql';
const JOURNAL = 'apps/server/src/db/migrations/meta/_journal.json';
const base = { hash: 'a'.repeat(40), body: 'Why it changed.', parents: ['b'.repeat(40)], files: ['README.md'] };

describe('commit habits', () => {
  it('refuses a long subject, a missing body and a migration sharing its commit', () => {
    expect(commitProblems({ ...base, subject: 'x'.repeat(72) })).toEqual([]);
    expect(
      commitProblems({ ...base, subject: 'Migration 0066', files: [SQL, JOURNAL, 'scripts/migration-hashes.json'] }),
    ).toEqual([]);
    const long = 'y'.repeat(73);
    expect(commitProblems({ ...base, subject: long, body: '\n' })).toEqual([
      `aaaaaaaaaa "${'y'.repeat(47)}...": subject is 73 characters (at most 72)`,
      `aaaaaaaaaa "${'y'.repeat(47)}...": no body (say why in a paragraph after the subject)`,
    ]);
    expect(commitProblems({ ...base, subject: 'Autopay', files: [SQL, JOURNAL, 'apps/server/src/app.ts'] })).toEqual([
      'aaaaaaaaaa "Autopay": a migration shares its commit with apps/server/src/app.ts',
    ]);
  });

  it('lets a merge that only joins pass without a body, and refuses one with edits of its own', () => {
    const merge = { ...base, subject: 'Merge branch x', body: '', parents: ['b'.repeat(40), 'c'.repeat(40)] };
    expect(commitProblems(merge)).toEqual([]);
    expect(commitProblems({ ...merge, ownEdits: 'diff --cc README.md\n@@@ -1 -1 +1 @@@\n' })).toEqual([
      'aaaaaaaaaa "Merge branch x": a merge with edits of its own (resolve on the branch, then merge)',
    ]);
  });

  it('reads a real history after its base and finds the merge with an edit of its own', () => {
    const root = mkdtempSync(join(tmpdir(), 'commit-habits-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: root,
        encoding: 'utf8',
      }).trim();
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    git('init', '-q', '-b', 'main');
    write('a.txt', '1\n');
    git('add', '.');
    git('commit', '-q', '-m', 'Start', '-m', 'The base.');
    const start = git('rev-parse', 'HEAD');
    git('checkout', '-q', '-b', 'side');
    write('b.txt', 'side\n');
    git('add', '.');
    git('commit', '-q', '-m', 'Side work', '-m', 'Because.');
    git('checkout', '-q', 'main');
    write('c.txt', 'main\n');
    git('add', '.');
    git('commit', '-q', '-m', 'Main work', '-m', 'Because.');
    git('merge', '-q', '--no-ff', '--no-commit', 'side');
    write('a.txt', '2\n'); // an edit no parent has
    git('add', '.');
    git('commit', '-q', '-m', 'Merge side');
    const { problems, note } = habitViolations(root, start);
    expect(note).toBe(`commit habits: 3 commits after ${start.slice(0, 10)} checked`);
    expect(problems).toEqual([
      `${git('rev-parse', 'HEAD').slice(0, 10)} "Merge side": a merge with edits of its own (resolve on the branch, then merge)`,
    ]);
  });
});
