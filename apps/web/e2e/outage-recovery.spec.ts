import { expect } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, apiPay, openAsCustomer } from './helpers';

test('a screen that met a database outage says so in Korean and loads by itself once it is over', async ({
  page,
  request,
}) => {
  const token = await apiCustomer(request);
  await apiPay(request, token, '장애 후 라떼', 4_500);
  const headers = { authorization: `Bearer ${token}` };
  await expect
    .poll(async () => (await (await request.get('/api/notifications/unread-count', { headers })).json()).data.unread)
    .toBe(1);
  await openAsCustomer(page, token);

  // The server's answer while its database is away: 503 with Retry-After and the contract's body.
  let away = true;
  let refused = 0;
  await page.route(
    (url) => url.pathname === '/api/notifications',
    async (route) => {
      if (!away) return route.continue();
      refused += 1;
      await route.fulfill({
        status: 503,
        headers: { 'retry-after': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ success: false, code: 'SERVICE_UNAVAILABLE', message: '잠시 후 다시 시도해주세요.' }),
      });
    },
  );
  await page.goto('/notifications');
  const alert = page.getByRole('alert').filter({ hasText: '잠시 후 다시 시도해주세요.' });
  await expect(alert).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: '다시 시도' })).toBeVisible();
  await page.screenshot({ path: 'e2e/.tmp/outage-notifications.png' });
  // Still away: it keeps trying by itself, after each Retry-After.
  const triedSoFar = refused;
  await expect.poll(() => refused, { timeout: 10_000 }).toBeGreaterThan(triedSoFar);

  // The database is back: the list arrives with nobody touching the screen.
  away = false;
  await expect(page.getByTestId('notice')).toContainText('장애 후 라떼 4,500원 결제가 완료됐어요.', {
    timeout: 15_000,
  });
  await expect(alert).toHaveCount(0);
});
