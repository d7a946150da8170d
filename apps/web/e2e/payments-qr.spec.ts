import { expect, request as playwrightRequest } from '@playwright/test';
import config from '../playwright.config';
import { fakeCameraLaunchOptions } from './chromium';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn } from './helpers';
import { cameraFile, writeQrCameraVideo } from './qr-camera';

const y4m = cameraFile('qr-camera');

// Chromium's fake camera plays this file: a QR of a real payment request, made below before launch.
// Both e2e browsers honour --use-file-for-fake-video-capture (Debian's Chromium and the npm one from
// @sparticuz/chromium, checked with each), so this test has one path for both.
test.use({
  permissions: ['camera'],
  launchOptions: fakeCameraLaunchOptions(y4m),
});

let requestName = '';

test.beforeAll(async () => {
  const api = await playwrightRequest.newContext({ baseURL: config.use?.baseURL });
  requestName = `QR 상품 ${Date.now() % 10000}`;
  const res = await api.post('/api/merchant/payment-requests', {
    headers: { 'x-merchant-key': 'demo-merchant-key' },
    data: { orderId: `qr-${Date.now()}`, requestName, totalPrice: 2_500 },
  });
  const { qrCode } = await res.json();
  await api.dispose();
  await writeQrCameraVideo(y4m, qrCode);
});

test('scanning the QR with the camera opens the payment modal', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page);
  await page.goto('/qrpin');
  await expect(page.getByRole('tab', { name: 'QR 스캔' })).toHaveAttribute('aria-selected', 'true');
  const modal = page.getByRole('dialog', { name: '결제하기' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  await expect(modal.getByTestId('request-name')).toHaveText(requestName);
  await expect(modal.getByTestId('final-amount')).toHaveText('2,500원');
});
