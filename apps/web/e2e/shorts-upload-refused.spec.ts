import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn } from './helpers';
import { writeTestClip } from './media-tools';

test('an upload whose session expired says to log in again, then goes up with the same file', async ({ page }) => {
  test.setTimeout(120_000);
  const alerts = recordAlerts(page);
  const clip = join(mkdtempSync(join(tmpdir(), 'ohgood-refused-')), 'big.mp4');
  // Over 3 MB: the refusal comes while the browser is still sending the body.
  writeTestClip(clip, true);
  expect(statSync(clip).size).toBeGreaterThan(3 * 1024 * 1024);
  const emailId = await signUpAndLogIn(page);

  await page.goto('/shorts/upload');
  await page.getByLabel('동영상 파일').setInputFiles(clip);
  await expect(page.getByTestId('upload-preview')).toBeVisible();
  await page.getByLabel('제목').fill('다시 올리는 영상');
  await page.getByLabel('내용').fill('세션이 끝나도 그대로 #테스트');

  // The session ends on the server's side (a token it no longer accepts).
  await page.evaluate(() => sessionStorage.setItem('accessToken', 'expired.or.revoked.token'));
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.request().method() === 'POST');
  await page.getByRole('button', { name: '업로드' }).click();
  expect((await refused).status()).toBe(401);
  await expect(page).toHaveURL(/\/login\?next=%2Fshorts%2Fupload$/);
  await expect.poll(() => alerts).toContain('로그인이 만료되었어요. 다시 로그인해 주세요.');
  expect(alerts.some((a) => a.includes('네트워크'))).toBe(false);

  await page.getByLabel('이메일').fill(emailId);
  await page.getByLabel('비밀번호').fill('password1!');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/shorts\/upload$/);
  await expect(page.getByTestId('upload-restored')).toBeVisible();
  await expect(page.getByTestId('upload-preview')).toBeVisible();
  await expect(page.getByLabel('제목')).toHaveValue('다시 올리는 영상');
  await expect(page.getByLabel('내용')).toHaveValue('세션이 끝나도 그대로 #테스트');
  await page.screenshot({ path: 'e2e/.tmp/upload-restored.png' });

  const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.request().method() === 'POST');
  await page.getByRole('button', { name: '업로드' }).click();
  const body = await (await uploaded).json();
  expect(body.success).toBe(true);
  await expect(page).toHaveURL(new RegExp(`/shorts/feeds\\?shortsId=${body.data.shortsId}$`), { timeout: 60_000 });
  // Landed: the draft is gone.
  expect(await page.evaluate(() => sessionStorage.getItem('shortsUploadFile'))).toBeNull();
});
