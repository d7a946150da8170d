import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures';
import {
  apiCustomer,
  apiPay,
  logInAsDemo,
  merchantRequest,
  openAsCustomer,
  recordAlerts,
  settled,
  signUpAndLogIn,
  uniqueEmail,
} from './helpers';
import { writeTestClip } from './media-tools';

// What a customer trips over at 390×844 (the config's viewport): one test per screen detail.

const SEOUL_MONTH = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 7);

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

/** A colour's alpha from getComputedStyle ('rgb(…)' is opaque). */
const alphaOf = (color: string) => (color.startsWith('rgba') ? Number(color.split(',')[3]?.replace(')', '')) : 1);

test('payment history finds merchants, also by initial consonants', async ({ page, request }) => {
  const token = await apiCustomer(request);
  await apiPay(request, token, '아메리카노', 4_500);
  await openAsCustomer(page, token);
  await page.goto('/payment/details');
  const search = page.getByRole('searchbox', { name: '결제 내역 검색' });
  const rows = page.getByTestId('payment-row');
  await expect(rows).toHaveCount(1);
  for (const query of ['스타벅스', 'ㅅㅌㅂ', '강남', '아메리카노', 'ㅇㅁㄹ']) {
    await search.fill(query);
    await expect(rows, query).toHaveCount(1);
  }
  await search.fill('CGV');
  await expect(rows).toHaveCount(0);
});

test('an expired session says so on /login and keeps where to return', async ({ page }) => {
  const alerts = recordAlerts(page);
  await openAsCustomer(page, 'expired.or.forged.token');
  await page.goto('/payment');
  await expect(page).toHaveURL(/\/login\?next=%2Fpayment$/);
  await expect.poll(() => alerts).toContain('로그인이 만료되었어요. 다시 로그인해 주세요.');
  expect(alerts).not.toContain('로그인 후 이용 가능합니다.');
});

/** The bot bubbles' whole texts, in order. */
const botTexts = (page: Page) =>
  page
    .getByTestId('chat-bot-message')
    .evaluateAll((els) => els.map((el) => el.querySelector('.visually-hidden')?.textContent ?? ''));

async function tapOption(page: Page, label: string) {
  const option = page.getByRole('group', { name: '선택지' }).getByRole('button', { name: label, exact: true });
  await option.click();
}

test('chat particles, no sentence twice, plain buttons, and typing that a tap finishes', async ({ page }) => {
  await signUpAndLogIn(page);
  await page.goto('/chat');
  await tapOption(page, '기분에 따른 추천');
  await tapOption(page, '좋아');
  await tapOption(page, '음악감상');
  const answer = page.getByTestId('chat-bot-message').filter({ hasText: '음악감상을 좋아하는구나' });
  await expect(answer).toHaveAttribute('data-typing', 'false');
  const texts = await botTexts(page);
  expect(texts.join('\n')).not.toMatch(/\((을|를|이|가|은|는|와|과)\)/);
  // Consecutive bot bubbles never repeat a sentence.
  for (let i = 1; i < texts.length; i++) {
    const before = new Set((texts[i - 1] ?? '').split('\n'));
    expect((texts[i] ?? '').split('\n').filter((line) => before.has(line))).toEqual([]);
  }

  // A long answer: the input stays open while it types, and a tap shows it whole at once.
  await page.getByLabel('메시지').fill('처음으로');
  await page.getByLabel('메시지').press('Enter');
  await tapOption(page, '자주하는 질문');
  const options = page.getByRole('group', { name: '선택지' }).getByRole('button');
  await expect(options.first()).toBeVisible();
  const labels = await options.allTextContents();
  expect(labels).toContain('바로 납부하는 법');
  expect(labels.join(' ')).not.toContain('플로우');
  await tapOption(page, '기간 연장');
  const typing = page.locator('[data-testid=chat-bot-message][data-typing=true]');
  await expect(typing).toHaveCount(1);
  await expect(page.getByLabel('메시지')).not.toHaveAttribute('readonly', '');
  const started = Date.now();
  await page.getByRole('log', { name: '대화 내용' }).click({ position: { x: 20, y: 200 } });
  await expect(typing).toHaveCount(0, { timeout: 1_000 });
  expect(Date.now() - started).toBeLessThan(1_000);

  // A message sent while the bot types finishes the answer, then goes.
  await tapOption(page, '포인트');
  await expect(typing).toHaveCount(1);
  await page.getByLabel('메시지').fill('연체되면 어떻게 돼?');
  await page.getByLabel('메시지').press('Enter');
  await expect(page.getByText('연체되면 어떻게 돼?')).toBeVisible();
});

test('the 12-month chart opens on the latest month, fully in view', async ({ page }) => {
  await logInAsDemo(page);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: '12개월' }).click();
  const latest = page.getByTestId(`bar-${SEOUL_MONTH}`);
  await expect(latest).toHaveAttribute('aria-pressed', 'true');
  const bars = page.locator('fieldset', { has: latest });
  await expect
    .poll(async () => {
      const [area, bar] = [await box(bars), await box(latest)];
      return bar.x >= area.x - 1 && bar.x + bar.width <= area.x + area.width + 1;
    })
    .toBe(true);
  await page.screenshot({ path: 'e2e/.tmp/phone-screen-details-chart.png' });
});

test('score reasons in whole points, with what helps beside what hurts', async ({ page }) => {
  await logInAsDemo(page);
  await page.goto('/dashboard');
  const hurts = page.getByTestId('score-factors');
  const helps = page.getByTestId('score-helps');
  await expect(helps).toBeVisible();
  await expect(helps.locator('li').first()).toContainText('좋아요');
  if ((await hurts.count()) > 0) {
    for (const text of await hurts.locator('li').allTextContents()) expect(text).toMatch(/−\d+점/);
    expect((await hurts.textContent()) ?? '').not.toMatch(/\d\.\d점/);
  }
});

test('toasts stay above the /payment action bar; sign-up errors sit at their fields', async ({ page }) => {
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page);
  await page.goto('/payment');
  await page.getByRole('button', { name: '즉시 납부' }).click();
  const toast = page.getByTestId('toast');
  await expect(toast).toHaveText('선택된 결제 내역이 없습니다.');
  const bar = page.locator('[data-toast-clearance]', { has: page.getByRole('button', { name: '즉시 납부' }) });
  expect((await box(toast)).y + (await box(toast)).height).toBeLessThanOrEqual((await box(bar)).y);

  await page.getByTestId('logout').click();
  await page.goto('/register');
  await page.getByLabel('계좌번호').fill('12-34');
  await page.getByRole('button', { name: '회원가입' }).click();
  await expect(page.getByRole('alert')).toHaveText('올바른 값을 입력해주세요.');
  await expect(page.getByLabel('이름')).toBeFocused();
  await expect(page.getByLabel('계좌번호')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('계좌번호는 숫자 10~14자리예요.')).toBeVisible();
  expect(alerts).not.toContain('올바른 값을 입력해주세요.');
});

test('one opaque header per page (none shows the content scrolling under it)', async ({ page }) => {
  await logInAsDemo(page);
  await page.goto('/payment/details');
  await settled(page);
  await page.mouse.wheel(0, 600);
  const mainHeader = page.locator('header').first();
  expect(alphaOf(await mainHeader.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(1);
  expect(await mainHeader.evaluate((el) => getComputedStyle(el).backdropFilter)).toBe('none');

  await page.goto('/chat');
  const headers = page.locator('header:visible');
  await expect(headers).toHaveCount(1);
  await expect(headers).toContainText('오굿이');
  expect((await box(headers)).y).toBe(0);
  expect(alphaOf(await headers.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(1);
  await page.screenshot({ path: 'e2e/.tmp/phone-screen-details-chat.png' });
});

test('bill badges and extension refusals name their rule; buttons look as live as they are', async ({ page }) => {
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page);
  await page.goto('/payment');
  const extend = page.getByRole('button', { name: '연장 신청' });
  await expect(extend).toBeVisible();
  expect(await extend.getAttribute('data-inactive')).toBeNull();
  await extend.click();
  await expect
    .poll(() => alerts)
    .toContain('연장 신청이 불가능 합니다. 아직 청구되지 않은 이번 달 이용분은 연장할 수 없어요.');

  // The badge of an extended bill ('연장됨 · 말일 납부', no longer the red 'due' one) and the 'already extended'
  // refusal are checked on the demo customer's bill in bills-payment.spec.ts, which extends it.
});

test('after earning, the gauge stays full and says the video is done', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndLogIn(page);
  const feed = await page.request.get('/api/public/shorts/feeds?page=1&size=50');
  const short = ((await feed.json()).data as Array<{ shortsId: number; durationSeconds: number }>).find(
    (s) => s.durationSeconds <= 6,
  );
  if (!short) throw new Error('a short demo video');
  await page.goto(`/shorts/feeds?shortsId=${short.shortsId}`);
  const slide = page.locator(`[data-testid=short-slide][data-shorts-id="${short.shortsId}"]`);
  const gauge = slide.getByTestId('watch-gauge');
  await expect(slide.getByText(/^\d+P 적립되었습니다!$/)).toBeVisible({ timeout: 30_000 });
  await expect(slide.getByTestId('gauge-caption')).toHaveText('이 영상은 적립 완료', { timeout: 6_000 });
  await expect(gauge).toHaveAttribute('data-earned', 'true');
  await expect(gauge).toHaveAttribute('aria-label', '시청 포인트 게이지: 이 영상은 적립 완료');
  await page.screenshot({ path: 'e2e/.tmp/phone-screen-details-gauge.png' });
});

test('출석체크 while logged out comes back to the roulette after login', async ({ page, request }) => {
  const emailId = uniqueEmail('attend');
  await request.post('/api/public/register', {
    data: {
      name: '출석',
      emailId,
      pwd: 'password1!',
      birth: '1990-01-01',
      account: '12345678901',
      accountName: '국민',
    },
  });
  await page.goto('/');
  await page.getByRole('button', { name: '출석체크' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2F%3Fattendance%3D1$/);
  await page.getByLabel('이메일').fill(emailId);
  await page.getByLabel('비밀번호').fill('password1!');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page.getByRole('dialog', { name: '출석체크 룰렛' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('the shorts theme holds: dark sheet, quiet clear button, no stale query, one wording', async ({ page }) => {
  await signUpAndLogIn(page);
  const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
  const feed = await page.request.get('/api/public/shorts/feeds?page=1&size=1');
  const creator = (await feed.json()).data[0].customerId as number;
  const sub = await page.request.post(`/api/shorts/subscribe/${creator}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await sub.json()).code).toBe(200);

  await page.goto('/shorts/mypage');
  await expect(page.getByRole('link', { name: '전체 보기' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: '전체', exact: true })).toHaveCount(0);

  await page.goto('/shorts/mypage/subscribe');
  await page
    .getByRole('button', { name: /구독 취소/ })
    .first()
    .click();
  const sheet = page.getByRole('dialog');
  await expect(sheet).toBeVisible();
  // The sheet's surface is the dark theme's (#141414), not white.
  expect(await sheet.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(20, 20, 20)');
  await page.screenshot({ path: 'e2e/.tmp/phone-screen-details-sheet.png' });
  await sheet.getByRole('button', { name: '계속 구독' }).click();

  await page.goto(`/shorts/search?q=${encodeURIComponent('커피')}`);
  const box = page.getByRole('searchbox', { name: '쇼츠 검색' });
  await expect(box).toHaveValue('커피');
  const clear = page.getByRole('button', { name: '검색어 지우기' });
  const color = await clear.evaluate((el) => getComputedStyle(el).color);
  expect(color).toBe('rgb(161, 161, 170)');
  await clear.click();
  await expect(box).toHaveValue('');
  await box.fill('라떼');
  await box.press('Enter');
  await expect(page).toHaveURL(/q=%EB%9D%BC%EB%96%BC/);
  // In-app to another shorts page: the header no longer shows that query.
  await page.getByRole('button', { name: '내 쇼츠' }).click();
  await expect(page).toHaveURL(/\/shorts\/mypage$/);
  await expect(page.getByRole('searchbox', { name: '쇼츠 검색' })).toHaveValue('');
});

test('sign-up errors, merchant on point lines, drawn bank marks, upload labels, prices, PIN keys', async ({
  page,
  request,
}) => {
  const alerts = recordAlerts(page);
  // Sign-up through the form: a taken e-mail marks the e-mail field; done, the login form has the e-mail.
  const emailId = uniqueEmail('finish');
  await page.goto('/register');
  const fill = async (email: string) => {
    await page.getByLabel('이름').fill('마무리');
    await page.getByLabel('이메일').fill(email);
    await page.getByLabel('비밀번호').fill('password1!');
    await page.getByLabel('생년월일').fill('1990-01-02');
    await page.getByLabel('계좌번호').fill('110-123-456789');
    await page.getByRole('button', { name: '회원가입' }).click();
  };
  await fill('demo@ohgood.kr');
  await expect(page.getByLabel('이메일')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('이미 가입된 이메일입니다.')).toBeVisible();
  await fill(emailId);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('이메일')).toHaveValue(emailId);
  await expect(page.getByLabel('비밀번호')).toBeFocused();
  await page.getByLabel('비밀번호').fill('password1!');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  const token = (await page.evaluate(() => sessionStorage.getItem('accessToken'))) as string;

  // Point history names the merchant of a payment's points.
  await apiPay(request, token, '아메리카노', 10_000);
  await page.goto('/point/history');
  await expect(page.getByText(/스타벅스 강남점 · /).first()).toBeVisible();

  // The bank is a drawn mark, not a letter.
  await page.goto('/mypage');
  const mark = page.locator('svg[data-bank]');
  await expect(mark).toHaveAttribute('aria-label', 'KB국민은행');
  expect(await mark.locator('text').count()).toBe(0);
  expect(await mark.locator('path').count()).toBeGreaterThan(0);

  // The PIN tab takes digit keys without touching the pad; '한도가 부족합니다.' is said once.
  const big = await merchantRequest(request, '노트북', 2_000_000);
  await page.goto('/qrpin');
  await page.getByRole('tab', { name: 'PIN 입력' }).click();
  await page.keyboard.type(big.pinCode);
  const modal = page.getByRole('dialog');
  await expect(modal).toBeVisible();
  await expect(modal.getByText('한도가 부족합니다.')).toHaveCount(1);
  await expect(modal.getByTestId('limit-gap')).toContainText('더 필요해요');

  // Upload: the automatic thumbnail is labelled, the title counted.
  const clip = join(mkdtempSync(join(tmpdir(), 'ohgood-phone-screen-details-')), 'clip.mp4');
  writeTestClip(clip);
  await page.goto('/shorts/feeds');
  await page.getByRole('button', { name: '업로드' }).first().click();
  await page.getByTestId('gallery-input').first().setInputFiles(clip);
  await expect(page).toHaveURL(/\/shorts\/upload$/);
  await expect(page.getByTestId('thumbnail-source')).toHaveText('자동 썸네일 (첫 장면)');
  await page.getByLabel('제목').fill('마지막 점검');
  await expect(page.getByText('6/50')).toBeVisible();

  // Chat prices read like every other amount.
  await page.goto('/chat');
  await tapOption(page, '기분에 따른 추천');
  await tapOption(page, '좋아');
  await tapOption(page, '게임');
  await tapOption(page, '상품추천');
  const prices = page.getByTestId('chat-product').locator('p').filter({ hasText: /원$/ });
  await expect(prices.first()).toBeVisible();
  for (const price of await prices.allTextContents()) expect(price).toMatch(/^\d{1,3}(,\d{3})*원$/);
  expect(await page.getByTestId('chat-product').filter({ hasText: '₩' }).count()).toBe(0);
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
  await page.screenshot({ path: 'e2e/.tmp/phone-screen-details-chat-products.png' });
});
