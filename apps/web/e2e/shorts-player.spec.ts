import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn, uniqueEmail } from './helpers';

async function demoShortId(page: Page): Promise<number> {
  const res = await page.request.get('/api/public/shorts/feeds?page=1&size=10');
  const first = (await res.json()).data[0] as { shortsId: number } | undefined;
  if (!first) throw new Error('no demo short');
  return first.shortsId;
}

test('the mute button stays after the controls fade, and the first tap turns the sound on', async ({ page }) => {
  recordAlerts(page);
  await page.goto('/shorts/feeds');
  const slide = page.locator('[data-testid=short-slide]').first();
  const video = slide.getByTestId('active-video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0);
  expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);

  // First deliberate tap on the video: sound on, still playing (no pause).
  await slide.getByRole('button', { name: '탭하여 소리 켜기' }).click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);

  // The other controls fade after 3 s; mute stays visible and works.
  await expect(slide.getByTestId('controls')).toHaveCSS('opacity', '0', { timeout: 8_000 });
  const mute = slide.getByRole('button', { name: '음소거' });
  await expect(mute).toBeVisible();
  await mute.click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
  // Once sound was chosen, a tap on the video pauses as before.
  await slide.getByRole('button', { name: '일시정지' }).click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
});

test('back from a feed opened by a shared link goes Home; opened in the app it goes back', async ({ page }) => {
  recordAlerts(page);
  const id = await demoShortId(page);
  await page.goto(`/shorts/feeds?shortsId=${id}`);
  await expect(page.getByTestId('active-video')).toBeVisible();
  await page.getByRole('button', { name: '뒤로 가기' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'QR 스캔 · 코드 입력' })).toBeVisible();

  await page.goto('/login');
  await page.getByTestId('footer').getByRole('link', { name: 'Shorts' }).click();
  await expect(page).toHaveURL(/\/shorts\/feeds$/);
  await page.getByRole('button', { name: '뒤로 가기' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a link to a missing short says it is gone, and the feed still plays', async ({ page }) => {
  recordAlerts(page);
  await page.goto('/shorts/feeds?shortsId=987654321');
  await expect(page.getByRole('alert')).toHaveText('요청한 쇼츠를 찾을 수 없어요. 삭제되었거나 주소가 잘못되었어요.');
  await expect(page.getByTestId('active-video')).toBeVisible();
});

test('unsubscribing asks in the confirm sheet; focus returns to the button', async ({ page }) => {
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('unsub'));
  await page.goto('/shorts/feeds');
  const slide = page.locator('[data-testid=short-slide]').first();
  await expect(slide.getByTestId('active-video')).toBeVisible();
  await slide.getByRole('button', { name: '구독', exact: true }).click();
  const subscribed = slide.getByRole('button', { name: '구독중' });
  await expect(subscribed).toBeVisible();

  await subscribed.click();
  const sheet = page.getByRole('dialog', { name: /구독을 취소할까요\?$/ });
  await expect(sheet).toBeVisible();
  await sheet.getByRole('button', { name: '계속 구독' }).click();
  await expect(sheet).toBeHidden();
  await expect(subscribed).toBeVisible();
  await expect(subscribed).toBeFocused();

  await subscribed.click();
  await sheet.getByRole('button', { name: '구독 취소' }).click();
  await expect(slide.getByRole('button', { name: '구독', exact: true })).toBeVisible();
  expect(alerts.filter((t) => t.startsWith('native:'))).toEqual([]);
});

test('a feed that fails to load says so once and loads on 다시 시도', async ({ page }) => {
  recordAlerts(page);
  let offline = true;
  await page.route('**/api/public/shorts/feeds**', (route) => (offline ? route.abort() : route.continue()));
  await page.goto('/shorts/feeds');
  await expect(page.getByRole('alert')).toContainText('쇼츠를 불러오지 못했습니다.');
  offline = false;
  await page.getByRole('button', { name: '다시 시도' }).click();
  await expect(page.getByTestId('active-video')).toBeVisible();
});
