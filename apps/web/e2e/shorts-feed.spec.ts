import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn } from './helpers';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function firstDemoId(page: Page, predicate: (s: { commentCount: number; durationSeconds: number }) => boolean) {
  const res = await page.request.get('/api/public/shorts/feeds?page=1&size=50');
  const items = (await res.json()).data as Array<{
    shortsId: number;
    commentCount: number;
    durationSeconds: number;
  }>;
  const found = items.find(predicate);
  if (!found) throw new Error('no demo short fits');
  return found.shortsId;
}

test('logged out: the feed plays, and liking asks for a login', async ({ page }) => {
  const alerts = recordAlerts(page);
  await page.goto('/shorts/feeds');
  const active = page.getByTestId('active-video');
  await expect(active).toBeVisible();
  await expect
    .poll(() => active.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0);
  // Only the visible video plays; the next two are preloaded.
  const videos = page.locator('video');
  expect(await videos.count()).toBeLessThanOrEqual(4);
  // They start once the visible one can play, so the first frame does not share bandwidth with them.
  await expect
    .poll(() =>
      videos.evaluateAll((vs) =>
        (vs as HTMLVideoElement[])
          .filter((v) => v.paused && v.getAttribute('src'))
          .map((v) => v.getAttribute('preload'))
          .join(','),
      ),
    )
    .toBe('auto,auto');

  await page.getByTestId('watch-gauge').first().click();
  await expect(page.getByText('로그인하면 시청 포인트를 받을 수 있어요.')).toBeVisible();

  await page.getByRole('button', { name: '좋아요' }).first().click();
  await expect(page).toHaveURL(/\/login\?next=%2Fshorts%2Ffeeds/);
  await expect.poll(() => alerts).toContain('로그인 후 이용 가능합니다.');
});

test('keyboard and swipe move one slide; back is blocked until moving forward', async ({ page }) => {
  await page.goto('/shorts/feeds');
  const activeId = () =>
    page.locator('[data-testid=short-slide]:has([data-testid=active-video])').getAttribute('data-shorts-id');
  const first = await activeId();
  await page.keyboard.press('ArrowUp');
  expect(await activeId()).toBe(first);
  await page.keyboard.press('ArrowDown');
  await expect.poll(activeId).not.toBe(first);
  const second = await activeId();
  await page.keyboard.press('ArrowUp');
  await expect.poll(activeId).toBe(first);
  // A swipe shorter than 50 px does nothing; a longer one moves on.
  const feed = page.getByRole('region', { name: '쇼츠 피드' });
  const swipe = (dy: number) =>
    feed.evaluate((el, delta) => {
      const touch = (y: number) => new Touch({ identifier: 1, target: el, clientX: 200, clientY: y });
      el.dispatchEvent(
        new TouchEvent('touchstart', { bubbles: true, touches: [touch(500)], changedTouches: [touch(500)] }),
      );
      el.dispatchEvent(
        new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(500 - delta)] }),
      );
    }, dy);
  await swipe(40);
  expect(await activeId()).toBe(first);
  await swipe(120);
  await expect.poll(activeId).toBe(second);
});

test('like, comment, reply and delete; share copies a link that opens the video first', async ({ page }) => {
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page);
  const id = await firstDemoId(page, (s) => s.commentCount === 0);
  await page.goto(`/shorts/feeds?shortsId=${id}`);
  const slide = page.locator(`[data-testid=short-slide][data-shorts-id="${id}"]`);
  await expect(slide.getByTestId('active-video')).toBeVisible();

  const likes = slide.getByTestId('like-count');
  const before = Number(await likes.textContent());
  const like = slide.getByRole('button', { name: '좋아요' });
  await like.click();
  await expect(likes).toHaveText(String(before + 1));
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await slide.getByRole('button', { name: '싫어요' }).click();
  await expect(likes).toHaveText(String(before));
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await slide.getByRole('button', { name: '싫어요' }).click();

  await slide.getByRole('button', { name: '댓글' }).click();
  const panel = page.getByRole('dialog', { name: '댓글' });
  await expect(panel.getByText('아직 댓글이 없어요. 첫 댓글을 남겨보세요!')).toBeVisible();
  const input = panel.getByLabel('댓글 입력');
  await input.fill('첫 댓글이에요');
  await panel.getByRole('button', { name: '댓글 등록' }).click();
  const comments = panel.getByTestId('comment');
  await expect(comments).toHaveCount(1);
  await expect(comments.first()).toContainText('첫 댓글이에요');
  await expect(slide.getByTestId('comment-count')).toHaveText('1');

  await comments.first().getByRole('button', { name: '답글' }).click();
  await expect(input).toHaveValue(/^@사용자\d+ $/);
  await input.pressSequentially('답글입니다');
  await panel.getByRole('button', { name: '댓글 등록' }).click();
  await expect(comments).toHaveCount(2);
  const reply = comments.nth(1);
  await expect(reply).toContainText('답글입니다');
  // One level only: no reply button on a reply.
  await expect(reply.getByRole('button', { name: '답글' })).toHaveCount(0);

  await reply.getByRole('button', { name: '댓글 삭제' }).click();
  // The in-app confirm sheet, not window.confirm.
  await page.getByRole('dialog', { name: '댓글을 삭제할까요?' }).getByRole('button', { name: '삭제' }).click();
  await expect(comments).toHaveCount(1);
  expect(alerts.filter((text) => text.startsWith('native:'))).toEqual([]);
  await panel.getByRole('button', { name: '댓글 닫기' }).click();

  await slide.getByRole('button', { name: '공유' }).click();
  const dialog = page.getByRole('dialog', { name: '공유하기' });
  const link = `${new URL(page.url()).origin}/shorts/feeds?shortsId=${id}`;
  await expect(dialog.getByLabel('공유 링크')).toHaveValue(link);
  await dialog.getByRole('button', { name: '링크 복사' }).click();
  await expect(dialog.getByRole('button', { name: '복사됨' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // The copied state lasts 2 s.
  await expect(dialog.getByRole('button', { name: '링크 복사' })).toBeVisible({ timeout: 4_000 });

  await page.goto('/');
  await page.goto(link);
  await expect(page.locator('[data-testid=short-slide]:has([data-testid=active-video])')).toHaveAttribute(
    'data-shorts-id',
    String(id),
  );
});

test('the watch gauge pays once for a short demo video', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndLogIn(page);
  const id = await firstDemoId(page, (s) => s.durationSeconds <= 6);
  const earns: Array<{ success: boolean; earnedPoints: number }> = [];
  page.on('response', async (r) => {
    if (r.url().endsWith('/api/shorts/point/earn')) earns.push(await r.json());
  });
  await page.goto(`/shorts/feeds?shortsId=${id}`);
  const slide = page.locator(`[data-testid=short-slide][data-shorts-id="${id}"]`);
  const gauge = slide.getByTestId('watch-gauge');
  await expect
    .poll(async () => Number(await gauge.getAttribute('data-watched')), { timeout: 15_000 })
    .toBeGreaterThan(0.5);
  await expect(slide.getByText(/^\d+P 적립되었습니다!$/)).toBeVisible({ timeout: 20_000 });
  // The response body is read asynchronously by the listener: wait for it rather than race it.
  await expect.poll(() => earns).toEqual([expect.objectContaining({ success: true, earnedPoints: 1 })]);
  // The message goes after 3 s; the video keeps looping but pays no more on this slide.
  await expect(slide.getByText(/적립되었습니다/)).toBeHidden({ timeout: 5_000 });
  const required = Number(await gauge.getAttribute('data-required'));
  await page.waitForTimeout((required + 1) * 1000);
  expect(earns).toHaveLength(1);
});

test('scrolling through 100 videos keeps the DOM and the JS heap flat, and the feed cycles', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/shorts/feeds');
  await expect(page.getByTestId('active-video')).toBeVisible();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  };
  const slideCount = () => page.locator('[data-testid=short-slide]').count();
  const seen = new Set<string>();
  let heapAt10 = 0;
  for (let step = 0; step < 100; step++) {
    const before = await page
      .locator('[data-testid=short-slide]:has([data-testid=active-video])')
      .getAttribute('data-shorts-id');
    seen.add(before ?? '');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() =>
        page.locator('[data-testid=short-slide]:has([data-testid=active-video])').getAttribute('data-shorts-id'),
      )
      .not.toBe(before);
    expect(await page.locator('video').count()).toBeLessThanOrEqual(4);
    expect(await slideCount()).toBeLessThanOrEqual(4);
    if (step === 10) heapAt10 = await heap();
  }
  const heapAt100 = await heap();
  // 9 demo videos, 100 moves: the feed went round several times.
  expect(seen.size).toBeGreaterThanOrEqual(8);
  expect(heapAt100 - heapAt10).toBeLessThan(8 * 1024 * 1024);
});
