import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(__dirname, '..', '..');
const SHORTS_STYLES = [
  'features/shorts/components/feed.module.css',
  'features/shorts/pages/record-page.module.css',
  'features/shorts/pages/upload-page.module.css',
  'features/shorts/components/upload-card.module.css',
  'app/layouts/shorts-layout.module.css',
  'app/layouts/footer.module.css',
];

describe('shorts dark theme', () => {
  it.each(SHORTS_STYLES)('%s takes every colour from the theme tokens', (file) => {
    const css = readFileSync(join(src, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(css.match(/#[0-9a-f]{3,8}\b|rgba?\(/gi) ?? []).toEqual([]);
  });

  it('declares each token it uses in the one theme file', () => {
    const theme = readFileSync(join(src, 'shared/styles/shorts-theme.css'), 'utf8');
    const used = new Set(
      SHORTS_STYLES.flatMap((file) => readFileSync(join(src, file), 'utf8').match(/--shorts-[a-z0-9-]+/g) ?? []),
    );
    for (const token of used) expect(theme).toContain(`${token}:`);
  });
});
