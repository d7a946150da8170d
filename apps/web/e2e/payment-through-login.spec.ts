import { expect } from '@playwright/test';
import { test } from './fixtures';
import { confirmReceipt, enterPin, merchantRequest, recordAlerts, signUpAndLogIn, uniqueEmail } from './helpers';

/** 'YYYY-MM' of now in Seoul, +1 month, as the receipt's '12월 15일'. */
function nextDueLabel(): string {
  const seoul = new Date(Date.now() + 9 * 3600_000);
  const month = ((seoul.getUTCMonth() + 1) % 12) + 1;
  return `${month}월 15일`;
}

test('a QR link opened logged out keeps the payment through login, and its receipt leads to history', async ({
  page,
  request,
}) => {
  const alerts = recordAlerts(page);
  const email = uniqueEmail('deeplink');
  await page.request.post('/api/public/register', {
    data: {
      name: '딥링크',
      emailId: email,
      pwd: 'password1!',
      birth: '1990-01-01',
      account: '3333012345678',
      accountName: '카카오',
    },
  });
  const r = await merchantRequest(request, '아이스 아메리카노', 4_500);
  await page.goto(`/qrpin?code=${r.qrCode}`);
  await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/qrpin?code=${r.qrCode}`)}$`));
  await expect(page.getByRole('heading', { level: 1, name: '로그인' })).toBeVisible();
  await page.getByLabel('이메일').fill(email);
  await page.getByLabel('비밀번호').fill('password1!');
  await page.getByRole('button', { name: '로그인', exact: true }).click();

  const modal = page.getByRole('dialog', { name: '결제하기' });
  await expect(modal.getByTestId('request-name')).toHaveText('아이스 아메리카노');
  await modal.getByRole('button', { name: '4,500원 결제하기' }).click();

  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByRole('heading', { name: '결제가 완료되었어요' })).toBeFocused();
  await expect(receipt.getByTestId('receipt-merchant')).toHaveText('스타벅스 강남점');
  await expect(receipt.getByTestId('receipt-charged')).toHaveText('4,500원');
  await expect(receipt.getByTestId('receipt-point-used')).toHaveText('0P');
  // Bronze earns 0.2 %: floor(4,500 × 0.002) = 9.
  await expect(receipt.getByTestId('receipt-point-earned')).toHaveText('+9P');
  await expect(receipt.getByTestId('receipt-balance')).toHaveText(/^[\d,]+원$/);
  await expect(receipt.getByTestId('receipt-due')).toHaveText(nextDueLabel());
  await page.screenshot({ path: 'e2e/.tmp/receipt.png' });

  await confirmReceipt(page);
  const row = page.locator('[data-highlighted="true"]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('아이스 아메리카노');
  await expect(row).toBeInViewport();
  expect(alerts).toEqual(['로그인 후 이용 가능합니다.', '로그인 성공!']);
});

test('a second tab of the app shares the session (ADR 0040)', async ({ page, context }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('tabs'));
  const second = await context.newPage();
  await second.goto('/mypage');
  await expect(second.getByText('님, 안녕하세요!')).toBeVisible();
  await expect(second).toHaveURL(/\/mypage$/);
  // Logging out in one tab logs out the other.
  await second.getByRole('button', { name: '로그아웃' }).click();
  await expect(page.getByTestId('login-link')).toBeVisible();
  await second.close();
});

test('Home card total equals the 결제 내역 total, and the rows add up to it', async ({ page, request }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('sum'));
  const first = await merchantRequest(request, '운동화', 50_000);
  await enterPin(page, first.pinCode);
  await page.getByRole('dialog', { name: '결제하기' }).getByRole('button', { name: '50,000원 결제하기' }).click();
  await confirmReceipt(page);
  // 100 P earned, all of it used on the second purchase: the receipt shows it.
  const second = await merchantRequest(request, '양말', 3_000);
  await enterPin(page, second.pinCode);
  const modal = page.getByRole('dialog', { name: '결제하기' });
  await modal.getByRole('button', { name: '전액사용' }).click();
  await modal.getByRole('button', { name: '2,900원 결제하기' }).click();
  await expect(page.getByTestId('receipt-point-used')).toHaveText('-100P');
  await expect(page.getByTestId('receipt-charged')).toHaveText('2,900원');
  await confirmReceipt(page);

  await expect(page.getByTestId('month-charged')).toContainText('52,900원');
  const rows = await page.getByTestId('row-charged').allTextContents();
  const sum = rows.reduce((total, text) => total + Number(text.replace(/[^\d]/g, '')), 0);
  expect(sum).toBe(52_900);

  await page.goto('/');
  await expect(page.getByTestId('this-month-amount')).toHaveText('52,900원');
  await expect(page.getByText('포인트 사용 후 청구 금액')).toBeVisible();
});
