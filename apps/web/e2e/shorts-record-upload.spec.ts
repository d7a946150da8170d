import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { FAST_4G } from '../../../scripts/throttled-phone.mjs';
import { fakeCameraLaunchOptions } from './chromium';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn } from './helpers';
import { writeTestClip } from './media-tools';

// Chromium's fake camera and microphone (a moving test pattern with beeps), no permission prompt.
test.use({
  launchOptions: fakeCameraLaunchOptions(),
  permissions: ['camera', 'microphone'],
});

type CardState = { text: string; value: number | null };

/** In the page: every state the upload card's line goes through, with its bar's value (null: none). */
function recordCardStates() {
  const seen: CardState[] = [];
  (window as unknown as { __cardStates: CardState[] }).__cardStates = seen;
  new MutationObserver(() => {
    const text = document.querySelector('[data-testid="upload-card-state"]')?.textContent;
    const bar = document.querySelector<HTMLProgressElement>('[data-testid="upload-card"] progress');
    if (!text || !bar || seen.at(-1)?.text === text) return;
    seen.push({ text, value: bar.hasAttribute('value') ? bar.value : null });
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}

test('record with the camera → upload → the video comes up first in the feed and plays', async ({ page }) => {
  test.setTimeout(120_000);
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page);

  await page.goto('/shorts/feeds/test');
  await expect(page.getByTestId('rec-indicator')).toHaveText('STOPPED');
  await page.getByRole('button', { name: '녹화 영상 보내기' }).click();
  await expect.poll(() => alerts).toContain('녹화된 영상이 없습니다.');

  await page.getByRole('button', { name: '카메라 켜기' }).click();
  await page.getByRole('button', { name: '녹화 시작' }).click();
  await expect(page.getByTestId('rec-indicator')).toHaveText('REC');
  // The clip's length: three one-second slices from the recorder.
  await page.waitForTimeout(3200);
  await page.getByRole('button', { name: '녹화 중지' }).click();
  await expect(page.getByTestId('rec-indicator')).toHaveText('STOPPED');
  await expect(page.getByTestId('recorded-preview')).toBeVisible();
  await page.getByRole('button', { name: '녹화 영상 보내기' }).click();

  await expect(page).toHaveURL(/\/shorts\/upload$/);
  await expect(page.getByTestId('upload-preview')).toBeVisible();
  // The default thumbnail is the first frame, made in the browser.
  await expect(page.getByAltText('썸네일 미리보기')).toBeVisible();

  await page.getByRole('button', { name: '업로드' }).click();
  await expect.poll(() => alerts).toContain('영상, 제목, 내용을 모두 입력해주세요.');

  await page.getByLabel('제목').fill('카메라 테스트 영상');
  const content = 'e2e로 녹화했어요 #테스트';
  await page.getByLabel('내용').fill(content);
  await expect(page.getByText(`${content.length}/150`)).toBeVisible();
  const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.request().method() === 'POST');
  // On a phone's network (Fast 4G: 1.35 Mbit/s up) the recording takes a while to go, and the feed to come.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', FAST_4G);
  await page.evaluate(recordCardStates);
  await page.getByRole('button', { name: '업로드' }).click();
  await expect(page.getByRole('button', { name: '업로드 중...' })).toBeVisible();
  // The upload's own card shows at once, playing the chosen file, and counts its bytes up to the transcode.
  const card = page.getByTestId('upload-card');
  await expect(card).toBeVisible();
  await expect(card.getByText('카메라 테스트 영상')).toBeVisible();
  const state = card.getByTestId('upload-card-state');
  await expect(state).toHaveText(/^업로드 중 [1-9]\d?%$/);
  // The bar is the bytes sent of the body's size, the same share as the text (both read in one moment).
  const shown = await card.evaluate((el) => {
    const bar = el.querySelector('progress[aria-label="업로드 진행"]') as HTMLProgressElement;
    return {
      text: el.querySelector('[data-testid="upload-card-state"]')?.textContent,
      sent: bar.value,
      total: bar.max,
    };
  });
  expect(shown.text).toBe(`업로드 중 ${Math.floor((shown.sent * 100) / shown.total)}%`);
  expect(shown.total).toBeGreaterThan(10_000);
  await page.screenshot({ path: 'e2e/.tmp/upload-card-sending.png' });
  await expect
    .poll(() => card.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0);
  const body = await (await uploaded).json();
  expect(body.success).toBe(true);
  const id = body.data.shortsId as number;

  await expect(page).toHaveURL(new RegExp(`/shorts/feeds\\?shortsId=${id}$`), { timeout: 60_000 });
  // On the way: the percent only rising, then the transcode, whose bar runs without a value (the server does
  // not say how far it is).
  const states = await page.evaluate(() => (window as unknown as { __cardStates: CardState[] }).__cardStates);
  const percents = states.flatMap((s) =>
    s.text.match(/^업로드 중 (\d+)%$/) ? [Number(s.text.match(/\d+/)?.[0])] : [],
  );
  expect(percents.length).toBeGreaterThan(2);
  expect(percents).toEqual([...percents].sort((a, b) => a - b));
  expect(states.at(-1)).toEqual({ text: '영상을 변환하고 있어요. 끝나면 피드에서 바로 재생돼요.', value: null });
  const slide = page.locator(`[data-testid=short-slide][data-shorts-id="${id}"]`);
  await expect(slide).toBeVisible();
  await expect(slide.getByRole('heading', { name: '카메라 테스트 영상' })).toBeVisible();
  // Own video: no subscribe button.
  await expect(slide.getByRole('button', { name: '구독' })).toHaveCount(0);
  const video = slide.locator('video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(0.3);
  expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
});

test('the gallery hands a picked video to the upload page; other files are refused', async ({ page }) => {
  const alerts = recordAlerts(page);
  const dir = mkdtempSync(join(tmpdir(), 'ohgood-gallery-'));
  const clip = join(dir, 'gallery.mp4');
  writeTestClip(clip);
  const text = join(dir, 'notes.txt');
  writeFileSync(text, '영상이 아닙니다');
  await signUpAndLogIn(page);
  await page.goto('/shorts/feeds');
  await expect(page.getByTestId('active-video')).toBeVisible();
  await page.getByRole('button', { name: '업로드' }).first().click();
  await expect(page.getByRole('menuitem', { name: '카메라' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '갤러리' })).toBeVisible();

  const input = page.getByTestId('gallery-input').first();
  await input.setInputFiles(text);
  await expect.poll(() => alerts).toContain('동영상 파일만 선택 가능합니다.');
  await expect(page).toHaveURL(/\/shorts\/feeds$/);

  await input.setInputFiles(clip);
  await expect(page).toHaveURL(/\/shorts\/upload$/);
  const handoff = await page.evaluate(() => JSON.parse(sessionStorage.getItem('shortsUploadFile') ?? 'null'));
  expect(handoff).toMatchObject({ name: 'gallery.mp4', type: 'video/mp4', url: expect.stringMatching(/^blob:/) });
  await expect(page.getByTestId('upload-preview')).toBeVisible();
  await expect(page.getByAltText('썸네일 미리보기')).toBeVisible();
});
