import { expect, request as playwrightRequest } from '@playwright/test';
import config from '../playwright.config';
import { fakeCameraLaunchOptions } from './chromium';
import { test } from './fixtures';
import { MERCHANT, recordAlerts, signUpAndLogIn, uniqueEmail } from './helpers';
import { cameraFile, writeQrCameraVideo } from './qr-camera';

const y4m = cameraFile('qr-once-camera');

// The fake camera shows one real request's QR the whole time, as a code left in view would be.
test.use({ permissions: ['camera'], launchOptions: fakeCameraLaunchOptions(y4m) });

let requestId = '';

test.beforeAll(async () => {
  const api = await playwrightRequest.newContext({ baseURL: config.use?.baseURL });
  const res = await api.post('/api/merchant/payment-requests', {
    headers: MERCHANT,
    data: { orderId: `qr-once-${Date.now()}`, requestName: '한 번만 스캔', totalPrice: 3_300 },
  });
  const body = await res.json();
  requestId = body.requestId;
  await api.dispose();
  await writeQrCameraVideo(y4m, body.qrCode);
});

test('a code in view is handled once per visit; ✕ does not reopen; paying never resends it', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('qronce'));
  const validations: number[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/api/payment/validate')) validations.push(res.status());
  });
  await page.goto('/qrpin');
  const modal = page.getByRole('dialog', { name: '결제하기' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  await modal.getByRole('button', { name: '닫기' }).click();
  await expect(modal).toBeHidden();

  // The scanner keeps decoding the same code (counted on the frame); the modal stays closed.
  const frame = page.getByTestId('qr-frame');
  const decoded = async () => Number((await frame.getAttribute('data-decoded')) ?? 0);
  const seen = await decoded();
  await expect.poll(decoded, { timeout: 20_000 }).toBeGreaterThan(seen + 10);
  await expect(modal).toBeHidden();
  expect(validations).toEqual([200]);

  // A deliberate 'scan again' handles it once more.
  await page.getByRole('button', { name: 'QR 다시 스캔' }).click();
  await expect(modal).toBeVisible({ timeout: 20_000 });
  expect(validations).toEqual([200, 200]);
  await modal.getByRole('button', { name: '3,300원 결제하기' }).click();
  await expect(page.getByTestId('receipt')).toBeVisible();
  expect(validations).toEqual([200, 200]);

  // A new visit sees the paid code once and says so (the server does not count it: payments.test.ts).
  await page.goto('/qrpin');
  await expect(page.getByRole('alert')).toHaveText('유효하지않은 코드입니다.', { timeout: 20_000 });
  const after = await decoded();
  await expect.poll(decoded, { timeout: 20_000 }).toBeGreaterThan(after + 10);
  expect(validations).toEqual([200, 200, 404]);
  const status = await page.request.get(`/api/merchant/payment-requests/${requestId}`, { headers: MERCHANT });
  expect((await status.json()).status).toBe('PAID');
});
