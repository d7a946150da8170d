import { expect } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts } from './helpers';

// At 390×844: the installed app offline, then back online.
test.use({ serviceWorkers: 'allow' });

test("the offline page's 다시 시도 reloads the page once the network is back", async ({ page, context }) => {
  recordAlerts(page);
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|inline event handler/i.test(message.text())) blocked.push(message.text());
  });
  await page.goto('/');
  await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  await page.goto('/payment/details');
  const offline = page.getByRole('heading', { name: '인터넷에 연결되어 있지 않아요' });
  await expect(offline).toBeVisible();
  const retry = page.getByRole('button', { name: '다시 시도' });
  // Still offline: the retry reloads and lands on the offline page again (it reacts, nothing is stuck).
  const reloaded = page.waitForEvent('load');
  await retry.click();
  await reloaded;
  await expect(offline).toBeVisible();
  await page.screenshot({ path: 'e2e/.tmp/offline-page.png' });

  await context.setOffline(false);
  await retry.click();
  await expect(offline).toHaveCount(0);
  // The app itself again (logged out, its guard asks for a login and keeps the page to return to).
  await expect(page).toHaveURL(/\/payment\/details$|next=%2Fpayment%2Fdetails/);
  await expect(page.getByRole('heading', { name: '로그인' })).toBeVisible();
  expect(blocked).toEqual([]);
});
