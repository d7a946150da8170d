import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appTimerViolations, houseRuleViolations, serviceSizeViolations } from '../../../scripts/house-rules.mjs';
import { fileTree } from './test/file-tree';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('house rules over the import graph', () => {
  it('holds for this repository: no cycle, no cross-feature or wrong-way import, kebab-case names, no outside citation', () => {
    expect(houseRuleViolations(repoRoot)).toEqual([]);
  });

  it('finds a cycle (type imports included), a cross-feature import, a wrong-way import and a bad name', () => {
    const root = fileTree({
      'apps/server/src/app.ts': "import { routes } from './modules/x/routes';\n",
      'apps/server/src/modules/x/routes.ts': "import type { Deps } from '../../app';\nexport const routes = 1;\n",
      'apps/web/src/features/a/page.tsx': "import { b } from '../b/thing';\n",
      'apps/web/src/features/b/thing.ts': 'export const b = 1;\n',
      'packages/contract/src/rules.ts': "import { x } from '../../../apps/server/src/app';\n",
      'apps/web/src/shared/MyWidget.tsx': 'export {};\n',
    });
    const problems = houseRuleViolations(root).join('\n');
    expect(problems).toContain('import cycle: apps/server/src/app.ts → apps/server/src/modules/x/routes.ts');
    expect(problems).toContain('cross-feature import: apps/web/src/features/a/page.tsx');
    expect(problems).toContain('wrong-way import: packages/contract/src/rules.ts');
    expect(problems).toContain('file name not kebab-case: apps/web/src/shared/MyWidget.tsx');
  });

  it('refuses a tracker issue number in code, with or without #, but not in a committed migration', () => {
    // Built, so this file passes the check it tests.
    const word = ['iss', 'ue'].join('');
    const root = fileTree({
      'apps/server/src/a.ts': `// Masked (${word} #14).\nexport const a = 1;\n`,
      'apps/web/src/b.css': `/* Dark theme (${word} 5). */\n`,
      'scripts/c.mjs': `// ${word.toUpperCase()}#3: nothing\n`,
      'apps/server/src/db/migrations/0003_x.sql': `-- ${word} 13: kept, migrations never change\n`,
      'apps/server/src/d.ts': '// an issue of timing, not a number\n',
    });
    expect(houseRuleViolations(root).filter((p) => p.startsWith('cites an issue'))).toEqual([
      'cites an issue number: apps/server/src/a.ts:1 (say why in the code, docs/rules or an ADR)',
      'cites an issue number: apps/web/src/b.css:1 (say why in the code, docs/rules or an ADR)',
      'cites an issue number: scripts/c.mjs:1 (say why in the code, docs/rules or an ADR)',
    ]);
  });

  it('finds citations of documents outside the repository, missing docs, unknown rule ids and pointers without #', () => {
    // The section sign, the unknown rule, the missing page and the pointer without # are built, so this file
    // passes the check it tests.
    const section = '\u00a7';
    const nowhere = ['docs', 'rules', 'nowhere.md'].join('/');
    const unknownRule = 'P99';
    const withoutHash = ['docs/rules/payments.md', 'P10'].join(' ');
    const root = fileTree({
      'docs/rules/payments.md': '# Payments\n\n| # | rule | proved by |\n|---|---|---|\n| P10 | Final. | a test |\n',
      'apps/server/src/pay.ts': `/** Final (spec ${section}5.2). */\n// Points (Domain ${section}7.2).\nexport const a = 1;\n`,
      'apps/web/src/x.module.css': `/* Dark (spec ${section}2). */\n`,
      'apps/server/src/db/migrations/0009_x.sql': `-- Ranking (domain ${section}9)\n`,
      'packages/contract/src/ok.ts': '/** Final (docs/rules/payments.md#P10). */\nexport const b = 1;\n',
      'packages/contract/src/bad.ts': `/** See ${withoutHash}, ${unknownRule} and ${nowhere}. */\n// docs/rules/payments.md#P10 and #${unknownRule}\n`,
    });
    const problems = houseRuleViolations(root);
    const cites = problems.filter((p) => p.startsWith('cites a section'));
    expect(cites).toEqual([
      'cites a section of a document outside the repo: apps/server/src/db/migrations/0009_x.sql:1 (point at docs/rules)',
      'cites a section of a document outside the repo: apps/server/src/pay.ts:1 (point at docs/rules)',
      'cites a section of a document outside the repo: apps/server/src/pay.ts:2 (point at docs/rules)',
      'cites a section of a document outside the repo: apps/web/src/x.module.css:1 (point at docs/rules)',
    ]);
    expect(problems).toContain(
      'names a rule docs/rules/payments.md does not define: packages/contract/src/bad.ts:1 (P99)',
    );
    expect(problems).toContain(
      'names a rule docs/rules/payments.md does not define: packages/contract/src/bad.ts:2 (P99)',
    );
    expect(problems).toContain(
      'points at a rule without #: packages/contract/src/bad.ts:1 (write docs/rules/payments.md#<rule>)',
    );
    expect(problems).toContain(`names a document that does not exist: packages/contract/src/bad.ts:1 (${nowhere})`);
    expect(problems.join('\n')).not.toContain('ok.ts');
  });

  it('keeps events/ free of modules, test support out of product code and the database out of lib/', () => {
    const root = fileTree({
      'apps/server/src/events/relay.ts': "import { notices } from '../modules/notifications/notices';\n",
      'apps/server/src/events/relay.test.ts': "import { notices } from '../modules/notifications/notices';\n",
      'apps/server/src/modules/notifications/notices.ts': "import { fixture } from '../../test/fixture';\n",
      'apps/server/src/modules/notifications/notices.test.ts': "import { fixture } from '../../test/fixture';\n",
      'apps/server/src/test/fixture.ts': "import { notices } from '../modules/notifications/notices';\n",
      'apps/server/src/lib/limits.ts': "import type { Executor } from '../db/tx';\n",
      'apps/server/src/db/tx.ts': 'export type Executor = unknown;\n',
      'apps/web/e2e/upload.spec.ts': "import { clipArgs } from '../../server/src/modules/media/clip-recipe';\n",
      'apps/server/src/modules/media/clip-recipe.ts': 'export const clipArgs = 1;\n',
    });
    const problems = houseRuleViolations(root).filter((p) => !p.startsWith('import cycle'));
    expect(problems).toEqual([
      'events/ imports a module: apps/server/src/events/relay.ts → apps/server/src/modules/notifications/notices.ts (a module plugs into events, not the reverse)',
      'lib/ imports db/: apps/server/src/lib/limits.ts → apps/server/src/db/tx.ts (database code lives in db/ or a module)',
      'product code imports test support: apps/server/src/modules/notifications/notices.ts → apps/server/src/test/fixture.ts',
    ]);
  });

  it('refuses a timer app.ts starts unless allowed, and an allowed timer that is gone', () => {
    const root = fileTree({
      'apps/server/src/app.ts':
        'const a = setInterval(tick, 1000);\nsetTimeout(() => undefined, 5);\nconst clock = "setIntervalish";\n',
    });
    expect(appTimerViolations(root, ['const a = setInterval(tick, 1000);', 'const b = setInterval(gone, 1);'])).toEqual(
      [
        'app.ts starts a timer: apps/server/src/app.ts:2 (register a job instead)',
        'allowed app.ts timer no longer there, drop it from APP_TIMERS_ALLOWED: const b = setInterval(gone, 1);',
      ],
    );
  });
  it('refuses a module service file, a part it was split into, or a module job, over the bound; other files may be longer', () => {
    const lines = (n: number) => 'export const a = 1;\n'.repeat(n);
    const tree = {
      'apps/server/src/modules/x/service.ts': lines(11),
      'apps/server/src/modules/x/y-service.ts': lines(10),
      'apps/server/src/modules/x/y-reads.ts': lines(11),
      'apps/server/src/modules/x/y-actions.ts': lines(12),
      'apps/server/src/modules/x/y-repository.ts': lines(13),
      'apps/server/src/modules/x/y-job.ts': lines(14),
      'apps/server/src/modules/x/x.test.ts': lines(50),
      'apps/server/src/modules/x/engine.ts': lines(50),
      'apps/server/src/db/service.ts': lines(50),
    };
    const root = fileTree(tree);
    expect(serviceSizeViolations(root, Object.keys(tree).sort(), 10)).toEqual([
      'service file over 10 lines: apps/server/src/modules/x/service.ts (11; split it by reads and actions)',
      'service file over 10 lines: apps/server/src/modules/x/y-actions.ts (12; split it by reads and actions)',
      'service file over 10 lines: apps/server/src/modules/x/y-job.ts (14; split it by reads and actions)',
      'service file over 10 lines: apps/server/src/modules/x/y-reads.ts (11; split it by reads and actions)',
      'service file over 10 lines: apps/server/src/modules/x/y-repository.ts (13; split it by reads and actions)',
    ]);
  });
});
