// Renders the app icons (PNG) from our mascot SVGs in public/icons with Debian's Chromium. The PNGs are
// committed source assets; run this again only when the SVGs change: `node scripts/make-icons.mjs`.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const icons = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const OUTPUTS = [
  { svg: 'icon.svg', png: 'icon-192.png', size: 192 },
  { svg: 'icon.svg', png: 'icon-512.png', size: 512 },
  { svg: 'icon-maskable.svg', png: 'icon-maskable-512.png', size: 512 },
  { svg: 'icon-maskable.svg', png: 'apple-touch-icon.png', size: 180 },
];

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
const page = await browser.newPage();
for (const { svg, png, size } of OUTPUTS) {
  const data = readFileSync(join(icons, svg)).toString('base64');
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}</style><img width="${size}" height="${size}" src="data:image/svg+xml;base64,${data}">`,
  );
  await page.locator('img').evaluate((img) => img.decode());
  await page.screenshot({
    path: join(icons, png),
    omitBackground: true,
    clip: { x: 0, y: 0, width: size, height: size },
  });
  console.log(`wrote ${png}`);
}
await browser.close();
