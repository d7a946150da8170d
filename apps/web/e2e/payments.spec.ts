import { expect } from '@playwright/test';
import { test } from './fixtures';
import { confirmReceipt, enterPin, MERCHANT, merchantRequest, recordAlerts, signUpAndLogIn } from './helpers';

test('pay by PIN, then again using points: history, points and the merchant all agree', async ({ page, request }) => {
  recordAlerts(page);
  await signUpAndLogIn(page);

  const first = await merchantRequest(request, '무선 이어폰', 50_000);
  await enterPin(page, first.pinCode);
  const modal = page.getByRole('dialog', { name: '결제하기' });
  await expect(modal).toBeVisible();
  await expect(modal.getByTestId('request-name')).toHaveText('무선 이어폰');
  await expect(modal.getByTestId('final-amount')).toHaveText('50,000원');
  await modal.getByRole('button', { name: '50,000원 결제하기' }).click();
  await confirmReceipt(page);
  await expect(page.getByText('무선 이어폰')).toBeVisible();

  // Bronze earns 0.2 %: 100 P from the first purchase, all of it used on the second.
  const second = await merchantRequest(request, '카페라떼', 3_000);
  await enterPin(page, second.pinCode);
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: '전액사용' }).click();
  await expect(modal.locator('#use-points')).toHaveText('100P');
  await expect(modal.getByTestId('final-amount')).toHaveText('2,900원');
  await modal.getByRole('button', { name: '2,900원 결제하기' }).click();
  await confirmReceipt(page);
  await expect(page.getByText('카페라떼')).toBeVisible();
  await expect(page.getByText('100P 사용')).toBeVisible();

  await page.getByLabel('결제 내역 검색').fill('ㅋㅍㄹㄸ');
  await expect(page.getByText('카페라떼')).toBeVisible();
  await expect(page.getByText('무선 이어폰')).toHaveCount(0);

  await page.goto('/point/history');
  await expect(page.getByText('포인트 사용')).toBeVisible();
  await expect(page.getByText('−100P')).toBeVisible();
  await expect(page.getByText('결제 적립').first()).toBeVisible();
  await expect(page.getByText('+100P')).toBeVisible();

  await page.goto('/mypage');
  // 100 earned − 100 used + floor(2,900 × 0.002) = 5
  await expect(page.getByTestId('point-balance')).toHaveText('5P');

  for (const r of [first, second]) {
    const status = await request.get(`/api/merchant/payment-requests/${r.requestId}`, { headers: MERCHANT });
    expect((await status.json()).status).toBe('PAID');
  }
});

test('a wrong PIN clears the digits, shows the error and keeps the pad open', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page);
  await enterPin(page, '000000');
  await expect(page.getByRole('alert')).toHaveText('유효하지않은 코드입니다.');
  await expect(page.getByTestId('pin-dots')).toHaveAttribute('aria-label', '0자리 입력됨');
  await expect(page.getByRole('group', { name: 'PIN 입력' })).toBeVisible();
});

test('the merchant checkout flips to 결제 완료 when the customer pays', async ({ page, browser }) => {
  recordAlerts(page);
  const pos = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await pos.goto('/merchant');
  await pos.getByLabel('상품명').fill('붕어빵 세트');
  await pos.getByLabel('금액(원)').fill('4000');
  await pos.getByRole('button', { name: '결제 요청 만들기' }).click();
  await expect(pos.getByRole('img', { name: '결제 QR 코드' })).toBeVisible();
  await expect(pos.getByTestId('merchant-countdown')).toContainText(/[12]:\d\d 남음/);
  const pin = ((await pos.getByTestId('merchant-pin').textContent()) ?? '').replace(/\s/g, '');
  expect(pin).toMatch(/^\d{6}$/);

  await signUpAndLogIn(page);
  await enterPin(page, pin);
  await page.getByRole('dialog', { name: '결제하기' }).getByRole('button', { name: '4,000원 결제하기' }).click();
  await confirmReceipt(page);
  await expect(pos.getByTestId('merchant-status')).toHaveText('결제 완료');
  await pos.close();
});

test('the footer-less /qrpin deep link validates at once', async ({ page, request }) => {
  recordAlerts(page);
  await signUpAndLogIn(page);
  const r = await merchantRequest(request, '딥링크 상품', 1_500);
  await page.goto(`/qrpin?code=${r.qrCode}`);
  await expect(page.getByRole('dialog', { name: '결제하기' }).getByTestId('request-name')).toHaveText('딥링크 상품');
  await expect(page.getByTestId('footer')).toHaveCount(0);
});

test('without a usable camera the QR tab says to check the camera permission', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page);
  await page.goto('/qrpin');
  // This browser has no camera device and no permission: qr-scanner cannot start.
  await expect(page.getByRole('alert')).toContainText('카메라 권한을 확인해 주세요.');
  await page.getByRole('tab', { name: 'PIN 입력' }).click();
  await expect(page.getByRole('group', { name: 'PIN 입력' })).toBeVisible();
});
