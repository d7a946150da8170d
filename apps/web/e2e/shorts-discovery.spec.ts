import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn } from './helpers';
import { runFfmpeg, writeTestClip } from './media-tools';

const shots = process.env.SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`) });
};

const activeId = (page: Page) =>
  page.locator('[data-testid=short-slide]:has([data-testid=active-video])').getAttribute('data-shorts-id');

const token = (page: Page) => page.evaluate(() => sessionStorage.getItem('accessToken') ?? '');

test('search by initial consonants, then open a result in the feed', async ({ page }) => {
  await page.goto('/shorts/feeds');
  const box = page.getByPlaceholder('검색어를 입력해주세요.');
  await box.fill('  ㄴㅇ  ');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/shorts\/search\?q=%E3%84%B4%E3%85%87$/);
  const card = page.getByTestId('video-card').filter({ hasText: '한강 노을 타임랩스' });
  await expect(card).toBeVisible();
  await expect(page.getByText('모든 항목을 불러왔습니다.')).toBeVisible();
  await shoot(page, 'search');
  const href = await card.getAttribute('href');
  const id = href?.match(/shortsId=(\d+)/)?.[1];
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/shorts/feeds\\?shortsId=${id}$`));
  await expect.poll(() => activeId(page)).toBe(id);

  await box.fill('없는검색어');
  await box.press('Enter');
  await expect(page.getByText("'없는검색어'에 대한 검색 결과가 없습니다.")).toBeVisible();
});

test("a creator's profile from the feed: subscribe, find it in my subscriptions, unsubscribe", async ({ page }) => {
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page);
  await page.goto('/shorts/feeds');
  const slide = page.locator('[data-testid=short-slide]:has([data-testid=active-video])');
  await expect(slide).toBeVisible();
  const nickname = (await slide.getByRole('button', { name: /프로필$/ }).getAttribute('aria-label'))?.replace(
    / 프로필$/,
    '',
  );
  await slide.getByRole('button', { name: nickname, exact: true }).click();
  await expect(page).toHaveURL(/\/shorts\/profile\?targetId=\d+$/);
  // The URL changes before the lazy profile page replaces the feed: wait for the profile itself.
  await expect(page.getByTestId('subscriber-count')).toBeVisible();
  await expect(page.getByText(nickname ?? '', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: '최신순' })).toHaveAttribute('aria-pressed', 'true');
  const count = Number(await page.getByTestId('subscriber-count').textContent());
  await page.getByRole('button', { name: '구독', exact: true }).click();
  await expect(page.getByRole('button', { name: '구독 취소' })).toBeVisible();
  await expect(page.getByTestId('subscriber-count')).toHaveText(String(count + 1));
  await page.getByRole('button', { name: '인기순' }).click();
  await expect(page.getByRole('button', { name: '인기순' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('video-card').first()).toBeVisible();
  await shoot(page, 'profile');

  await page.getByRole('button', { name: '내 쇼츠' }).click();
  await expect(page).toHaveURL(/\/shorts\/mypage$/);
  const subs = page.getByRole('region', { name: '구독' });
  await expect(subs.getByRole('link', { name: nickname })).toBeVisible();
  await subs.getByRole('link', { name: '구독 전체' }).click();
  await expect(page).toHaveURL(/\/shorts\/mypage\/subscribe$/);
  await page.getByRole('button', { name: '구독 취소' }).click();
  // Unsubscribing asks first, in the app's confirm sheet; nothing changes until it is confirmed.
  const sheet = page.getByRole('dialog', { name: `${nickname}님 구독을 취소할까요?` });
  await sheet.getByRole('button', { name: '계속 구독' }).click();
  await expect(sheet).toBeHidden();
  await expect(page.getByText(nickname ?? '', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: '구독 취소' }).click();
  await sheet.getByRole('button', { name: '구독 취소' }).click();
  await expect(page.getByText('구독한 사용자가 없습니다')).toBeVisible();
  await expect.poll(() => alerts).toContain('구독이 취소되었습니다.');
});

test('edit my profile with a photo and see it on my short in the feed', async ({ page }) => {
  const alerts = recordAlerts(page);
  const dir = mkdtempSync(join(tmpdir(), 'ohgood-profile-e2e-'));
  const clip = join(dir, 'mine.mp4');
  writeTestClip(clip);
  const photo = join(dir, 'me.png');
  runFfmpeg(['-f', 'lavfi', '-i', 'color=c=0x2bb673:s=300x200', '-frames:v', '1', photo]);
  await signUpAndLogIn(page);
  const auth = { authorization: `Bearer ${await token(page)}` };
  const upload = await page.request.post('/api/upload', {
    headers: auth,
    multipart: {
      title: '내 첫 쇼츠',
      content: '프로필 사진 확인용',
      video: { name: 'mine.mp4', mimeType: 'video/mp4', buffer: readFileSync(clip) },
    },
  });
  expect(upload.ok()).toBe(true);
  const shortsId = (await upload.json()).data.shortsId as number;
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/shorts/${shortsId}/status`, { headers: auth })).json()).data.status,
      {
        timeout: 45_000,
      },
    )
    .toBe('READY');

  await page.goto('/shorts/mypage');
  await page.getByRole('link', { name: '내 채널 보기' }).click();
  await expect(page).toHaveURL(/\/shorts\/profile$/);
  await page.getByRole('button', { name: '프로필 수정' }).click();
  await expect(page).toHaveURL(/\/shorts\/profile\/edit$/);
  const name = page.getByLabel(/^이름/);
  await name.fill('');
  await page.getByRole('button', { name: '확인' }).click();
  await expect.poll(() => alerts).toContain('이름을 입력해주세요.');
  await page
    .getByTestId('profile-photo')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('글') });
  await expect.poll(() => alerts).toContain('이미지 파일만 선택 가능합니다.');
  await page.getByTestId('profile-photo').setInputFiles(photo);
  await name.fill('사진있는나');
  await page.getByLabel(/^소개/).fill('안녕하세요');
  await expect(page.getByText('5/20')).toBeVisible();
  await shoot(page, 'profile-edit');
  await page.getByRole('button', { name: '확인' }).click();
  await expect(page).toHaveURL(/\/shorts\/profile$/);
  await expect.poll(() => alerts).toContain('프로필이 성공적으로 수정되었습니다.');
  await expect(page.getByText('사진있는나', { exact: true })).toBeVisible();
  const avatar = page.getByTestId('avatar').first();
  await expect(avatar).toHaveAttribute('src', /^\/media\/avatars\/[0-9a-f]{32}\.webp$/);
  const src = await avatar.getAttribute('src');

  await page.goto(`/shorts/feeds?shortsId=${shortsId}`);
  await expect.poll(() => activeId(page)).toBe(String(shortsId));
  const slide = page.locator('[data-testid=short-slide]:has([data-testid=active-video])');
  await expect(slide.getByRole('button', { name: '사진있는나 프로필' }).locator('img')).toHaveAttribute(
    'src',
    src ?? '',
  );
  expect(
    await slide
      .getByRole('button', { name: '사진있는나 프로필' })
      .locator('img')
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBe(256);
});

test('like and comment in the feed, then find both on the shorts my page', async ({ page }) => {
  await signUpAndLogIn(page);
  await page.goto('/shorts/feeds');
  const slide = page.locator('[data-testid=short-slide]:has([data-testid=active-video])');
  await expect(slide).toBeVisible();
  const title = (await slide.getByRole('heading').textContent()) ?? '';
  await slide.getByRole('button', { name: /^좋아요/ }).click();
  await expect(slide.getByRole('button', { name: /^좋아요/ })).toHaveAttribute('aria-pressed', 'true');
  await slide.getByRole('button', { name: /^댓글/ }).click();
  const input = page.getByPlaceholder(/댓글/);
  await input.fill('마이페이지에서 찾을 댓글');
  await input.press('Enter');
  await expect(page.getByText('마이페이지에서 찾을 댓글')).toBeVisible();

  await page.goto('/shorts/mypage');
  const liked = page.getByRole('region', { name: '좋아요 표시한 동영상' });
  await expect(liked.getByTestId('video-card').filter({ hasText: title })).toBeVisible();
  const commented = page.getByRole('region', { name: '댓글 단 동영상' });
  await expect(commented.getByTestId('video-card').filter({ hasText: '마이페이지에서 찾을 댓글' })).toBeVisible();
  await shoot(page, 'mypage');
  await commented.getByRole('link', { name: '댓글 단 동영상 전체 보기' }).click();
  await expect(page).toHaveURL(/\/shorts\/mypage\/comments$/);
  await expect(page.getByTestId('video-card').filter({ hasText: '마이페이지에서 찾을 댓글' })).toBeVisible();
  await expect(page.getByText('모든 항목을 불러왔습니다.')).toBeVisible();
  await shoot(page, 'mypage-comments');
  await page.goto('/shorts/mypage/all');
  await expect(page.getByTestId('video-card').filter({ hasText: title })).toBeVisible();
  await shoot(page, 'mypage-liked');
  await page.goto('/shorts/mypage/subscribe');
  await expect(page.getByText('구독한 사용자가 없습니다')).toBeVisible();
  await shoot(page, 'mypage-subscribe');
});
