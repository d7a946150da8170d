import { expect } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, apiPay, holdRequests, openAsCustomer } from './helpers';

test('/notifications shows the list’s shape while it loads, never a bare 불러오는 중...', async ({ page, request }) => {
  const token = await apiCustomer(request);
  await apiPay(request, token, '아이스 라떼', 5_500);
  // Its notice is written after the payment's commit: the list below is to hold it.
  const headers = { authorization: `Bearer ${token}` };
  await expect
    .poll(async () => (await (await request.get('/api/notifications/unread-count', { headers })).json()).data.unread)
    .toBe(1);
  await openAsCustomer(page, token);

  // The list's answer is held until the test has looked at the loading screen.
  const release = await holdRequests(page, (url) => url.pathname === '/api/notifications');
  await page.goto('/notifications');
  const skeleton = page.getByTestId('list-skeleton');
  await expect(skeleton).toBeVisible();
  // The page itself has come (its toolbar), and holds the same shape until its list answers.
  await expect(page.getByRole('button', { name: '모두 읽음' })).toBeVisible();
  await expect(skeleton).toBeVisible();
  await expect(skeleton).toHaveAttribute('aria-busy', 'true');
  // Screen readers hear one status; the screen shows rows, not words.
  await expect(page.getByRole('status').filter({ hasText: '알림을 불러오고 있어요.' })).toHaveCount(1);
  await expect(page.getByText('불러오는 중...')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: '알림' })).toBeVisible();
  await page.screenshot({ path: 'e2e/.tmp/notifications-skeleton.png' });

  release();
  await expect(page.getByTestId('notice')).toHaveCount(1);
  await expect(page.getByTestId('notice')).toContainText('아이스 라떼 5,500원 결제가 완료됐어요.');
  await expect(skeleton).toHaveCount(0);
});
