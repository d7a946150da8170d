import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { houseRuleViolations } from '../../../scripts/house-rules.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'house-rules-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('house rules over the import graph', () => {
  it('holds for this repository: no cycle, no cross-feature or wrong-way import, kebab-case names', () => {
    expect(houseRuleViolations(repoRoot)).toEqual([]);
  });

  it('finds a cycle (type imports included), a cross-feature import, a wrong-way import and a bad name', () => {
    const root = tree({
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
});
