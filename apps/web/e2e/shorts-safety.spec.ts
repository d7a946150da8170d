import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { logInAsDemo, recordAlerts } from './helpers';

const shots = process.env.SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
};

/** The seeded demo short of this title (its creator is '요리왕오굿', who also replied under it). */
async function demoShort(page: Page, title: string): Promise<number> {
  const res = await page.request.get(`/api/public/shorts/search?q=${encodeURIComponent(title)}`);
  const found = ((await res.json()).items as Array<{ shortsId: number; title: string }>).find(
    (item) => item.title === title,
  );
  if (!found) throw new Error(`no demo short '${title}'`);
  return found.shortsId;
}

/** The ids of the shorts in the feed this customer is served (the web app's own call, with its token). */
async function feedIds(page: Page): Promise<number[]> {
  const token = await page.evaluate(() => sessionStorage.getItem('accessToken') ?? '');
  const res = await page.request.get('/api/public/shorts/feeds?page=1&size=50', {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()).data as Array<{ shortsId: number }>).map((item) => item.shortsId);
}

async function searchFor(page: Page, q: string) {
  await page.goto(`/shorts/search?q=${encodeURIComponent(q)}`);
}

test('a customer reports a comment and blocks a creator; unblocking brings the creator back', async ({ page }) => {
  const alerts = recordAlerts(page);
  const creator = '요리왕오굿';
  const eggRoll = await demoShort(page, '초간단 계란말이');
  const tteokbokki = await demoShort(page, '국물 떡볶이');
  await logInAsDemo(page);

  // Report the creator's reply under their short.
  await page.goto(`/shorts/feeds?shortsId=${eggRoll}`);
  const slide = page.locator(`[data-testid=short-slide][data-shorts-id="${eggRoll}"]`);
  await expect(slide.getByTestId('active-video')).toBeVisible();
  // Another creator's short offers 신고하기 too, in the action column.
  await expect(slide.getByRole('button', { name: '신고', exact: true })).toBeVisible();
  await shoot(page, 'feed-actions');
  await slide.getByRole('button', { name: /^댓글/ }).click();
  const panel = page.getByRole('dialog', { name: '댓글' });
  const reply = panel.getByTestId('comment').filter({ hasText: '감사합니다' });
  await expect(reply).toBeVisible();
  // The demo customer's own comment (seeded '우와 대박') offers 삭제, not 신고.
  const own = panel.getByTestId('comment').filter({ hasText: '우와 대박' });
  await expect(own.getByRole('button', { name: '댓글 삭제' })).toBeVisible();
  await expect(own.getByRole('button', { name: /신고/ })).toHaveCount(0);
  const reportButton = reply.getByRole('button', { name: `${creator}님의 댓글 신고` });
  await reportButton.click();
  const sheet = page.getByRole('dialog', { name: '댓글 신고하기' });
  await expect(sheet).toBeVisible();
  // 기타 without its text is refused in Korean, at the field.
  await sheet.getByRole('radio', { name: '기타' }).check();
  await sheet.getByRole('button', { name: '신고하기' }).click();
  await expect(sheet.getByRole('alert')).toHaveText('기타 사유를 입력해주세요.');
  await expect(sheet.getByLabel('기타 사유')).toBeFocused();
  await shoot(page, 'report-sheet');
  await sheet.getByRole('radio', { name: '스팸·광고' }).check();
  await sheet.getByRole('button', { name: '신고하기' }).click();
  await expect(sheet).toBeHidden();
  await expect.poll(() => alerts).toContain('신고가 접수되었습니다. 검토 후 조치할게요.');
  // Focus is back on the button that opened the sheet; the comments stay open.
  await expect(reportButton).toBeFocused();
  await expect(panel).toBeVisible();

  // A second report of the same comment is answered calmly.
  await reportButton.click();
  await sheet.getByRole('radio', { name: '저작권' }).check();
  await sheet.getByRole('button', { name: '신고하기' }).click();
  await expect(sheet).toBeHidden();
  await expect.poll(() => alerts).toContain('이미 신고한 콘텐츠입니다.');
  // Escape closes only the sheet on top; the next one closes the comments.
  await reportButton.click();
  await expect(sheet).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Block the creator from their channel.
  await slide.getByRole('button', { name: creator, exact: true }).click();
  await expect(page).toHaveURL(/\/shorts\/profile\?targetId=\d+$/);
  await page.getByRole('button', { name: '차단하기' }).click();
  const confirm = page.getByRole('dialog', { name: `${creator}님을 차단할까요?` });
  await confirm.getByRole('button', { name: '차단하기' }).click();
  await expect.poll(() => alerts).toContain('차단했어요. 이 크리에이터의 쇼츠와 댓글이 더 이상 보이지 않아요.');
  await expect(page.getByRole('button', { name: '차단 해제' })).toBeVisible();
  await expect(page.getByText('쇼츠 피드가 텅 비어있어요!')).toBeVisible();

  // Their shorts are gone for this customer: feed, search, and a shared link to one.
  expect(await feedIds(page)).not.toContain(eggRoll);
  expect(await feedIds(page)).not.toContain(tteokbokki);
  await searchFor(page, '계란말이');
  await expect(page.getByText("'계란말이'에 대한 검색 결과가 없습니다.")).toBeVisible();
  await page.goto(`/shorts/feeds?shortsId=${eggRoll}`);
  await expect(page.getByText('요청한 쇼츠를 찾을 수 없어요. 삭제되었거나 주소가 잘못되었어요.')).toBeVisible();

  // The shorts my page lists them; 차단 해제 brings them back.
  await page.goto('/shorts/mypage');
  const blocked = page.getByRole('region', { name: '차단한 크리에이터' });
  await expect(blocked.getByTestId('blocked-creator')).toHaveText([`${creator}차단 해제`]);
  await blocked.scrollIntoViewIfNeeded();
  await shoot(page, 'blocked-list');
  await blocked.getByRole('button', { name: `${creator} 차단 해제` }).click();
  await expect(blocked.getByText('차단한 크리에이터가 없습니다.')).toBeVisible();
  await expect.poll(() => alerts).toContain('차단을 해제했어요.');

  await searchFor(page, '계란말이');
  await expect(page.getByTestId('video-card').filter({ hasText: '초간단 계란말이' })).toBeVisible();
  expect(await feedIds(page)).toEqual(expect.arrayContaining([eggRoll, tteokbokki]));
  expect(alerts.filter((text) => text.startsWith('native:'))).toEqual([]);
});
