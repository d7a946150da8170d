import { expect } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn, uniqueEmail } from './helpers';

// One accessible toast instead of native alerts, never two for one event.

test('login says 로그인 성공! in one role=status toast that goes away by itself', async ({ page }) => {
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('toast'));
  const toast = page.getByRole('status').filter({ hasText: '로그인 성공!' });
  await expect(toast).toBeVisible();
  await expect(page.getByTestId('toast')).toHaveCount(1);
  // Auto-dismissed: the live region stays, the message leaves.
  await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 6_000 });
  expect(alerts).toEqual(['로그인 성공!']);
});

test('logging out on a guarded page shows 로그아웃 되었습니다. once, no login warning', async ({ page }) => {
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('logout'));
  await page.goto('/mypage');
  await expect(page.getByText('님, 안녕하세요!')).toBeVisible();
  await page.getByRole('button', { name: '로그아웃' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('toast')).toHaveText('로그아웃 되었습니다.');
  await expect(page.getByTestId('login-link')).toBeVisible();
  expect(alerts.filter((text) => text !== '로그인 성공!')).toEqual(['로그아웃 되었습니다.']);
});

test('the toast sits on top of the page, not covered by the sticky bar or footer', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('above'));
  await page.goto('/payment');
  await page.getByRole('button', { name: '즉시 납부' }).click();
  const toast = page.getByTestId('toast');
  await expect(toast).toHaveText('선택된 결제 내역이 없습니다.');
  // Top of the stack at its centre: the toast itself, not something covering it.
  const hit = await toast.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
  });
  expect(hit).toBe(true);
});
