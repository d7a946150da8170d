import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts, signUpAndLogIn } from './helpers';

/* The mascot chat at 390×844 against the real server, database and seeded catalogue. */

const option = (page: Page, name: string) =>
  page.getByRole('group', { name: '선택지' }).getByRole('button', { name, exact: true });
const input = (page: Page) => page.getByLabel('메시지');
const lastBot = (page: Page) => page.getByTestId('chat-bot-message').last();

/** Waits until the bot has answered `count` messages in all and finished typing the last one. */
async function answered(page: Page, count: number) {
  await expect(page.getByTestId('chat-bot-message')).toHaveCount(count);
  await expect(lastBot(page)).toHaveAttribute('data-typing', 'false', { timeout: 20_000 });
}

async function openChat(page: Page) {
  await page.goto('/chat');
  await expect(page.getByRole('heading', { name: '오굿이와 대화하기' })).toBeVisible();
  await expect(option(page, '기분에 따른 추천')).toBeEnabled();
}

async function type(page: Page, text: string) {
  await expect(input(page)).not.toHaveAttribute('aria-disabled', 'true');
  await input(page).fill(text);
  await input(page).press('Enter');
}

test.beforeEach(async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page);
});

test('home leads to the chat; mood → hobby → 상품추천 → three cards → 다른 상품 → three new ones', async ({ page }) => {
  await page.getByRole('link', { name: '채팅하기' }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(option(page, '기분에 따른 추천')).toBeEnabled();
  await option(page, '기분에 따른 추천').click();
  await option(page, '안좋아').click();
  await option(page, '음악감상').click();
  await option(page, '상품추천').click();

  const cards = page.getByTestId('chat-product');
  await expect(cards).toHaveCount(3);
  await expect(option(page, '다른 상품')).toBeEnabled();
  const first = await cards.allInnerTexts();
  for (const card of first) expect(card).toMatch(/\d{1,3}(,\d{3})*원/);
  await expect(cards.first().getByRole('link', { name: /상품 보기/ })).toHaveAttribute('target', '_blank');
  // The image is ours, from /media, and it loads.
  const image = cards.first().locator('img');
  await expect(image).toHaveAttribute('src', /^\/media\/chat-products\/.+\.svg$/);
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  await option(page, '다른 상품').click();
  await expect(cards).toHaveCount(6);
  await expect(option(page, '다른 상품')).toBeEnabled();
  const names = await cards.locator('h3').allInnerTexts();
  expect(new Set(names).size).toBe(6);

  await page.screenshot({ path: 'e2e/.tmp/chat-recommendation.png' });
});

test('a typed FAQ question gets its answer, with line breaks kept', async ({ page }) => {
  await openChat(page);
  await type(page, '포인트는 어떻게 모아?');
  await answered(page, 2);
  await expect(lastBot(page)).toContainText('출석 체크 룰렛');
  await expect(lastBot(page)).toContainText('하루 최대 100P');
  // innerText follows CSS white-space, so the answer's line breaks must survive rendering.
  const shown = await lastBot(page).locator('span[aria-hidden]').innerText();
  expect(shown.split('\n').length).toBeGreaterThanOrEqual(4);
  await expect(option(page, '계정 정지 해제법')).toBeEnabled();
  await page.screenshot({ path: 'e2e/.tmp/chat-faq.png' });
});

test('포인트 내역 보여줘 shows the quick-menu card and it navigates; check-in opens the roulette', async ({ page }) => {
  await openChat(page);
  await type(page, '포인트 내역 보여줘');
  const card = page.getByTestId('chat-quick-menu');
  await expect(card).toContainText('포인트 내역');
  await card.click();
  await expect(page).toHaveURL(/\/point\/history$/);

  await openChat(page);
  await type(page, '출석체크 할래');
  await page.getByTestId('chat-quick-menu').click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('flow mismatch: 하던 이야기 계속하기 resumes, 처음으로 starts over; input is locked meanwhile', async ({
  page,
}) => {
  await openChat(page);
  await option(page, '기분에 따른 추천').click();
  await expect(option(page, '좋아')).toBeEnabled();
  await type(page, '연체되면 어떻게 돼?');
  await expect(option(page, '하던 이야기 계속하기')).toBeEnabled();
  await expect(option(page, '처음으로')).toBeEnabled();
  await expect(input(page)).toHaveAttribute('aria-disabled', 'true');

  await option(page, '하던 이야기 계속하기').click();
  await expect(option(page, '그저그래')).toBeEnabled();
  await expect(input(page)).not.toHaveAttribute('aria-disabled', 'true');

  await type(page, 'bnpl이 뭐야');
  await option(page, '처음으로').click();
  await expect(option(page, '자주하는 질문')).toBeEnabled();
  await expect(lastBot(page)).toContainText('나는 오굿이야');
});

test('a reload on /chat shows the app and a fresh conversation; works with the keyboard open', async ({ page }) => {
  await openChat(page);
  await option(page, '자주하는 질문').click();
  await expect(option(page, 'BNPL 이란?')).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('heading', { name: '오굿이와 대화하기' })).toBeVisible();
  await expect(option(page, '기분에 따른 추천')).toBeEnabled();
  await expect(page.getByTestId('chat-bot-message')).toHaveCount(1);

  // The phone's keyboard takes ~330 px: the composer and the newest answer must stay in view.
  await page.setViewportSize({ width: 390, height: 510 });
  await input(page).focus();
  await type(page, '스코어 기준 알려줘');
  await answered(page, 2);
  await expect(input(page)).toBeInViewport();
  await expect(option(page, '오굿 스코어 기준')).toBeInViewport();
  await page.screenshot({ path: 'e2e/.tmp/chat-keyboard.png' });
});
