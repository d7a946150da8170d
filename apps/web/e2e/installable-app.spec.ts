import { expect } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts } from './helpers';

// Installable like the Korean pay apps (the checks Lighthouse's PWA audit made).
test.use({ serviceWorkers: 'allow' });

test('manifest, icons and theme colour make the app installable', async ({ page, request }) => {
  recordAlerts(page);
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#ff6b3d');
  await expect(page.locator('meta[name="viewport"]')).toHaveAttribute('content', /width=device-width/);
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/icons/apple-touch-icon.png');

  const res = await request.get(href as string);
  expect(res.ok()).toBe(true);
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: '오굿페이',
    short_name: '오굿페이',
    lang: 'ko',
    start_url: '/',
    display: 'standalone',
    theme_color: '#ff6b3d',
  });
  const icons = manifest.icons as Array<{ src: string; sizes: string; purpose?: string }>;
  expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of [...icons, { src: '/icons/apple-touch-icon.png' }]) {
    const png = await request.get(icon.src);
    expect(png.ok()).toBe(true);
    expect(png.headers()['content-type']).toBe('image/png');
  }
});

test('the service worker controls the app and serves the offline page without a network', async ({ page, context }) => {
  recordAlerts(page);
  await page.goto('/');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');
  // Wait until precaching has finished and the worker has taken over this page.
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  await page.goto('/payment/details');
  await expect(page.getByRole('heading', { name: '인터넷에 연결되어 있지 않아요' })).toBeVisible();
  await expect(page.getByRole('button', { name: '다시 시도' })).toBeVisible();
  // The start URL opens offline from the precached shell (Lighthouse's "works offline" check).
  await page.goto('/');
  await expect(page.getByRole('link', { name: /QR 스캔 · 코드 입력/ })).toBeVisible();
  await context.setOffline(false);
  await page.goto('/payment/details');
  await expect(page.getByRole('heading', { name: '인터넷에 연결되어 있지 않아요' })).toHaveCount(0);
});
