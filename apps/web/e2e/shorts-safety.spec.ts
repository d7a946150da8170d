import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, logInAsDemo, openAsCustomer, recordAlerts } from './helpers';

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

const BLOCKED_PROFILE = '차단한 크리에이터예요. 차단을 해제하면 영상을 볼 수 있어요.';

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
  await expect(page.getByTestId('blocked-profile')).toHaveText(BLOCKED_PROFILE);

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

test('a blocked creator’s channel says so instead of an empty channel, and unblocks from there', async ({
  page,
  request,
}) => {
  const alerts = recordAlerts(page);
  const eggRoll = await demoShort(page, '초간단 계란말이');
  const short = await (await page.request.get(`/api/public/shorts/${eggRoll}`)).json();
  const creator: { id: number; name: string } = { id: short.customerId, name: short.customerNickname };
  await openAsCustomer(page, await apiCustomer(request));
  await page.goto(`/shorts/profile?targetId=${creator.id}`);
  await expect(page.getByRole('heading', { level: 1, name: creator.name })).toBeVisible();
  await expect(page.getByRole('button', { name: '구독', exact: true })).toBeVisible();

  await page.getByRole('button', { name: '차단하기' }).click();
  await page
    .getByRole('dialog', { name: `${creator.name}님을 차단할까요?` })
    .getByRole('button', { name: '차단하기' })
    .click();
  const note = page.getByTestId('blocked-profile');
  await expect(note).toHaveText(BLOCKED_PROFILE);
  // No subscribe button, no '동영상 0', no empty feed, no sort bar: only who they are and the way back.
  await expect(page.getByRole('button', { name: '구독', exact: true })).toHaveCount(0);
  await expect(page.getByText('동영상')).toHaveCount(0);
  await expect(page.getByText('쇼츠 피드가 텅 비어있어요!')).toHaveCount(0);
  await expect(page.getByRole('button', { name: '최신순' })).toHaveCount(0);
  await page.screenshot({ path: 'e2e/.tmp/blocked-profile.png' });

  // The same on a fresh load (nothing flashes first), and on the channel's full list.
  await page.reload();
  await expect(note).toHaveText(BLOCKED_PROFILE);
  await expect(page.getByRole('button', { name: '구독', exact: true })).toHaveCount(0);
  await page.goto(`/shorts/profile/all?targetId=${creator.id}`);
  await expect(note).toHaveText(BLOCKED_PROFILE);
  await expect(page.getByText('쇼츠 피드가 텅 비어있어요!')).toHaveCount(0);

  // 차단 해제 on the channel brings the channel back: its videos and the subscribe button.
  await page.goto(`/shorts/profile?targetId=${creator.id}`);
  const unblock = page.getByRole('button', { name: '차단 해제' });
  expect((await unblock.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  await unblock.click();
  await expect.poll(() => alerts).toContain('차단을 해제했어요.');
  await expect(note).toHaveCount(0);
  await expect(page.getByRole('button', { name: '구독', exact: true })).toBeVisible();
  await expect(page.getByTestId('video-card').first()).toBeVisible();
  expect(alerts.filter((text) => text.startsWith('native:'))).toEqual([]);
});
