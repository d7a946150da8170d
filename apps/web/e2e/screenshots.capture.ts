import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, openAsCustomer, recordAlerts, settled } from './helpers';
import { SCREENS } from './routes';

const here = dirname(fileURLToPath(import.meta.url));
const allDir = join(here, '..', 'screenshots');
const readmeDir = join(here, '..', '..', '..', 'docs', 'screenshots');
/** The four the README shows (small JPEGs at CSS pixel size). */
const README = new Set(['home', 'shorts-feeds', 'payment', 'mypage']);

test('screenshots of every route at 390×844', async ({ page, request }) => {
  mkdirSync(allDir, { recursive: true });
  mkdirSync(readmeDir, { recursive: true });
  recordAlerts(page);
  // The seeded demo customer: six months of bills, a gold grade and points, so screens have content.
  const res = await request.post('/auth', { data: { emailId: 'demo@ohgood.kr', pwd: 'ohgood123!' } });
  const body = await res.json();
  const demo = (body.accessToken ?? body.data?.accessToken) as string;
  expect(demo).toBeTruthy();
  const fresh = await apiCustomer(request);
  for (const screen of SCREENS) {
    const tab = await page.context().newPage();
    if (screen.auth) await openAsCustomer(tab, screen.name === 'qrpin' ? fresh : demo);
    await tab.goto(screen.path);
    // A tool, not a check: a screen that does not settle is still captured as it is, and named here.
    await settled(tab).catch(() => console.warn(`${screen.name}: did not settle; captured as it is`));
    // Let the shorts video show a frame and the ticker settle.
    if (screen.name === 'shorts-feeds') {
      await expect
        .poll(() => tab.getByTestId('active-video').evaluate((v: HTMLVideoElement) => v.currentTime), {
          timeout: 15_000,
        })
        .toBeGreaterThan(0.5);
    }
    await tab.screenshot({ path: join(allDir, `${screen.name}.png`), fullPage: true });
    if (README.has(screen.name)) {
      await tab.screenshot({ path: join(readmeDir, `${screen.name}.jpg`), type: 'jpeg', quality: 60, scale: 'css' });
    }
    await tab.close();
  }
});
