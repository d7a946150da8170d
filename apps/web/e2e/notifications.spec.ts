import { expect } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, apiPay, enterPin, merchantRequest, openAsCustomer, recordAlerts } from './helpers';

test('the bell counts a payment made in another tab at once; the list opens its receipt and marks it read', async ({
  page,
  context,
  request,
}) => {
  const alerts = recordAlerts(page);
  const token = await apiCustomer(request);
  await openAsCustomer(page, token);
  await page.goto('/');
  const bell = page.getByTestId('bell');
  await expect(bell).toBeVisible();
  await expect(page.getByTestId('notice-badge')).toHaveCount(0);

  // The customer pays the shop's request in a second tab; the first tab is not reloaded.
  const other = await context.newPage();
  await openAsCustomer(other, token);
  const shop = await merchantRequest(request, '아이스 라떼', 5_500);
  await enterPin(other, shop.pinCode);
  await other.getByRole('dialog', { name: '결제하기' }).getByRole('button', { name: '5,500원 결제하기' }).click();
  await expect(other.getByTestId('receipt')).toBeVisible();
  await expect(page.getByTestId('notice-badge')).toHaveText('1');
  await expect(bell).toHaveAccessibleName('알림, 읽지 않은 알림 1개');

  await apiPay(request, token, '샌드위치', 7_000);
  await expect(page.getByTestId('notice-badge')).toHaveText('2');

  // The shorts header has the bell too.
  await page.goto('/shorts/feeds');
  await expect(page.getByTestId('notice-badge')).toHaveText('2');

  await page.getByTestId('bell').click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { name: '오늘' })).toBeVisible();
  const notices = page.getByTestId('notice');
  await expect(notices).toHaveCount(2);
  await expect(notices.first()).toContainText('샌드위치 7,000원 결제가 완료됐어요.');
  await expect(notices.nth(1)).toContainText('아이스 라떼 5,500원');

  // Tapping a notice marks it read and opens its receipt.
  await notices.nth(1).click();
  await expect(page).toHaveURL(/\/payment\/details\?paymentId=\d+&month=\d{4}-\d{2}$/);
  await expect(page.getByRole('dialog')).toContainText('아이스 라떼');
  await expect(page.getByTestId('notice-badge')).toHaveText('1');

  await page.goto('/notifications');
  await expect(page.getByTestId('notice').nth(1)).toHaveAttribute('data-read', 'true');
  await page.getByRole('button', { name: '모두 읽음' }).click();
  await expect(page.getByTestId('notice-badge')).toHaveCount(0);
  await expect(page.getByTestId('notice').first()).toHaveAttribute('data-read', 'true');
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});

test('autopay: on by default, turning it off asks first; /payment and /mypage agree', async ({ page, request }) => {
  const alerts = recordAlerts(page);
  const token = await apiCustomer(request);
  await openAsCustomer(page, token);
  await page.goto('/payment');
  const toggle = page.getByRole('switch', { name: /자동 납부/ });
  await expect(toggle).toBeChecked();

  // Cancelling the sheet keeps it on.
  await toggle.click();
  const sheet = page.getByRole('dialog', { name: '자동 납부를 끌까요?' });
  await expect(sheet).toContainText('16일에 자동 연장');
  await sheet.getByRole('button', { name: '계속 사용' }).click();
  await expect(toggle).toBeChecked();

  await toggle.click();
  await page.getByRole('dialog', { name: '자동 납부를 끌까요?' }).getByRole('button', { name: '끄기' }).click();
  await expect(toggle).not.toBeChecked();
  await expect.poll(() => alerts).toContain('자동 납부를 껐어요. 납부일까지 직접 납부해 주세요.');

  await page.goto('/mypage');
  const mine = page.getByRole('switch', { name: /자동 납부/ });
  await expect(mine).not.toBeChecked();
  // Turning it on goes through consent and 1원 인증 first (autopay-verification.spec.ts walks it).
  await mine.click();
  await expect(page).toHaveURL(/\/payment\/autopay$/);
  await expect(page.getByRole('heading', { name: '자동 납부 출금 동의' })).toBeVisible();
});

test('notification settings: categories and quiet hours are saved', async ({ page, request }) => {
  const alerts = recordAlerts(page);
  const token = await apiCustomer(request);
  await openAsCustomer(page, token);
  await page.goto('/notifications');
  await expect(page.getByText('새 알림이 없어요.')).toBeVisible();
  await page.getByRole('link', { name: '알림 설정' }).click();
  await expect(page).toHaveURL(/\/notifications\/settings$/);

  const community = page.getByRole('group', { name: '커뮤니티' });
  await community.getByRole('switch', { name: '알림함' }).click();
  await expect(community.getByRole('switch', { name: '푸시 알림' })).toBeDisabled();
  await page.getByLabel('시작').fill('22:30');
  await page.getByRole('button', { name: '저장' }).click();
  await expect.poll(() => alerts).toContain('알림 설정을 저장했어요.');

  await page.reload();
  await expect(page.getByRole('group', { name: '커뮤니티' }).getByRole('switch', { name: '알림함' })).not.toBeChecked();
  await expect(page.getByLabel('시작')).toHaveValue('22:30');
  await expect(page.getByLabel('끝')).toHaveValue('08:00');
});
