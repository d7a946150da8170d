import { expect } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn } from './helpers';

/** Every page route of the app, plus its query forms. /chat and /dashboard share paths with the API. */
const ROUTES = [
  '/',
  '/login',
  '/register',
  '/qrpin',
  '/payment',
  '/payment/details',
  '/mypage',
  '/point/history',
  '/chat',
  '/dashboard',
  '/shorts',
  '/shorts/feeds',
  '/shorts/feeds?shortsId=1',
  '/shorts/upload',
  '/shorts/search',
  '/shorts/search?q=커피',
  '/shorts/mypage',
  '/shorts/mypage/subscribe',
  '/shorts/mypage/all',
  '/shorts/mypage/comments',
  '/shorts/profile?targetId=1',
  '/shorts/profile/edit',
  '/shorts/profile/all',
  '/shorts/feeds/test',
];

test('opening and reloading every page route (and /chat, /dashboard) shows the app, never an API answer', async ({
  page,
}) => {
  test.setTimeout(120_000);
  recordAlerts(page);
  await signUpAndLogIn(page);
  for (const route of ROUTES) {
    const opened = await page.goto(route);
    expect(opened?.status(), route).toBe(200);
    expect(opened?.headers()['content-type'], route).toContain('text/html');
    const reloaded = await page.reload();
    expect(reloaded?.status(), `${route} reloaded`).toBe(200);
    expect(reloaded?.headers()['content-type'], `${route} reloaded`).toContain('text/html');
    // The React app mounted (a JSON 404 would have no #root at all).
    await expect(page.locator('#root > *').first(), route).toBeAttached();
    await expect(page.locator('body'), route).not.toContainText('"success"');
  }
});
