import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const tokens = readFileSync(join(__dirname, 'tokens.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const GENERIC_FAMILIES = new Set(['system-ui', 'ui-sans-serif', 'sans-serif']);

// A named family the platform lacks costs desktop Chromium a look-up in another process for each new weight and
// size (~50 a cold page with five of them, ~15 with system-ui alone: docs/performance.md).
it('draws text before the brand font in the platform font, named by generic families only', () => {
  const stack = tokens.match(/--font-system:\s*([^;]+);/)?.[1];
  expect(stack).toBeDefined();
  const families = (stack ?? '').split(',').map((family) => family.trim());
  expect(families.filter((family) => !GENERIC_FAMILIES.has(family))).toEqual([]);
});
