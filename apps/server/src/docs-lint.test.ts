import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsViolations, provedByNames } from '../../../scripts/docs-lint.mjs';
import { fileTree } from './test/file-tree';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

// Built, so this file names no document the house rules would look for.
const D = ['docs', 'decisions'].join('/');
const R = ['docs', 'rules'].join('/');

const adr = (n: string, status: string, body = '') =>
  `# ${n} A decision\n\nDate: 2026-11-28\nStatus: ${status}\n\n${body}\n`;

describe('docs that hold decisions', () => {
  it('holds for this repository: ADR links both ways, index statuses as in the files, proved-by tests exist', () => {
    expect(docsViolations(repoRoot)).toEqual([]);
  });

  it('finds a missing back-link, an index status unlike the file, a row twice and a proved-by test that is gone', () => {
    const root = fileTree({
      [`${D}/0100-first.md`]: adr('0100', 'Accepted, amended by 0102'),
      [`${D}/0101-second.md`]: adr('0101', 'Accepted (amends 0100 and 0102)'),
      [`${D}/0102-third.md`]: adr('0102', 'Accepted (amends 0100; built on migration 0013)'),
      [`${D}/0103-fourth.md`]: adr('0103', 'Superseded by 0104'),
      [`${D}/0104-fifth.md`]: adr('0104', 'Accepted', 'It supersedes 0103.'),
      [`${D}/README.md`]:
        '| # | decision | status |\n|---|---|---|\n| 0100 | [First](0100-first.md) | Accepted, amended by 0102 |\n' +
        '| 0101 | [Second](0101-second.md) | Accepted |\n| 0102 | [Third](0102-third.md) | Accepted (amends 0100; built on migration 0013) |\n' +
        '| 0103 | [Fourth](0103-fourth.md) | Superseded by 0104 |\n| 0104 | [Fifth](0104-fifth.md) | Accepted |\n' +
        '| 0104 | [Fifth](0104-fifth.md) | Accepted |\n',
      [`${R}/pay.md`]:
        '| # | rule | proved by |\n|---|---|---|\n' +
        '| P1 | Final is `A | B`. | `pay.test.ts` › pays once…; › refunds’ path; `gone.test.ts` |\n' +
        '| P2 | Limits. | `limits.test.ts` (150 at once); › never overdraws |\n',
      'apps/server/src/pay.test.ts': "it('pays once and only once', () => {});\nit('refunds\\' path', () => {});\n",
      'apps/server/src/limits.test.ts': "it('never overdraws the limit', () => {});\n",
    });
    expect(docsViolations(root)).toEqual([
      `${D}/0101-second.md amends 0100, but ${D}/0100-first.md does not say "amended by 0101"`,
      `${D}/0101-second.md amends 0102, but ${D}/0102-third.md does not say "amended by 0101"`,
      `${D}/README.md lists 0104 twice`,
      `${D}/README.md says 0101 is "Accepted", ${D}/0101-second.md says "Accepted (amends 0100 and 0102)"`,
      `${R}/pay.md:3 names a test file that does not exist: gone.test.ts`,
    ]);
  });

  it('reads a proved-by cell as files with their titles, remarks left out', () => {
    expect(
      provedByNames(
        '`a.test.ts` › one…, › two (three, `b.ts`); `dir/c.spec.ts`; `e2e/d.spec.ts` › risk signs in, … lowers',
      ),
    ).toEqual([
      { file: 'a.test.ts', titles: ['one', 'two'] },
      { file: 'dir/c.spec.ts', titles: [] },
      { file: 'e2e/d.spec.ts', titles: ['risk signs in'] },
    ]);
  });
});
