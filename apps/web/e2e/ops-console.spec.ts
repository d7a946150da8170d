import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, openAsCustomer, settled, uniqueEmail } from './helpers';
import { OPERATORS, signInOnScreen, staffSession } from './staff-session';

/*
 * The operator console end to end, on the demo operators (README's demo table), at a desktop's 1440×900: an
 * operator signs in with a TOTP code the test computes, finds a customer, lifts a suspension and lowers the
 * limit with reasons and reads both in the audit log in words, and the customer's phone is told of the new
 * limit; a moderator hides a reported short and an anonymous feed no longer shows it, and sees a reported
 * comment with the short it is on.
 */

const shots = join(import.meta.dirname, '.tmp', 'ops');

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

/** Gives a reason, goes on to the confirmation and runs the action in the open dialog. */
async function confirmWithReason(page: Page, reason: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/사유/).fill(reason);
  await dialog.getByRole('button', { name: '다음' }).click();
  await expect(dialog.getByText(`사유: ${reason}`)).toBeVisible();
  await dialog.getByRole('button', { name: '실행' }).click();
  await expect(dialog).toBeHidden();
}

/** The admin's API session, handed to the console (its token lives in this tab's session storage). */
async function openWithAdminSession(page: Page) {
  await page.addInitScript((token) => sessionStorage.setItem('opsToken', token), admin.authorization?.slice(7) ?? '');
  await page.goto('/ops');
}

/** The anonymous feed's `n`th short from its end (its first page of 50). */
async function shortFromFeedEnd(request: APIRequestContext, n: number) {
  const feed = await request.get('/api/public/shorts/feeds?page=1&size=50');
  const items = (await feed.json()).data as Array<{ shortsId: number; title: string }>;
  const target = items.at(-n);
  expect(target).toBeTruthy();
  return target as { shortsId: number; title: string };
}

/** Clean-up for the specs after one: the admin decides the case of `target` in the queue `state`. */
async function closeCase(
  request: APIRequestContext,
  state: 'OPEN' | 'HIDDEN',
  target: { targetType: 'SHORT' | 'COMMENT'; targetId: number },
  action: 'RESTORE' | 'DISMISS',
) {
  const queue = await request.get(`/api/ops/moderation?state=${state}`, { headers: admin });
  const kase = ((await queue.json()).items as Array<{ caseId: number; targetId: number; targetType: string }>).find(
    (c) => c.targetType === target.targetType && c.targetId === target.targetId,
  );
  expect(kase).toBeTruthy();
  const decided = await request.post(`/api/ops/moderation/${kase?.caseId}/decision`, {
    headers: admin,
    data: { action, reason: 'e2e 정리' },
  });
  expect(decided.ok()).toBe(true);
}

let admin: Record<string, string>;

test.beforeAll(async ({ request }) => {
  mkdirSync(shots, { recursive: true });
  admin = { authorization: `Bearer ${await staffSession(request, OPERATORS.ADMIN)}` };
});

test('risk signs in with TOTP, finds a customer, lifts a suspension and lowers the limit, and reads both in the audit log', async ({
  page,
  request,
  browser,
}) => {
  const email = uniqueEmail('ops');
  const token = await apiCustomer(request, email);
  // The customer is suspended through the console's API first.
  const search = await request.get(`/api/ops/customers?q=${encodeURIComponent(email)}`, { headers: admin });
  const [found] = (await search.json()).items as Array<{ customerId: number }>;
  expect(found).toBeTruthy();
  const customerId = (found as { customerId: number }).customerId;
  const suspended = await request.post(`/api/ops/customers/${customerId}/suspend`, {
    headers: admin,
    data: { reason: 'e2e: 명의 도용 의심' },
  });
  expect(suspended.ok()).toBe(true);

  // A mistyped code is answered on the code step in its own words; the right one then signs in.
  await signInOnScreen(page, OPERATORS.RISK, { wrongCodeFirst: true });
  await expect(page.getByText('오늘의 현황')).toBeVisible();
  await page.screenshot({ path: join(shots, 'home.png') });
  // Risk has the merchants screen (to hold a shop's payouts) but no operator screen.
  const menu = page.getByRole('navigation', { name: '운영 메뉴' });
  await expect(menu.getByRole('button', { name: '가맹점' })).toHaveCount(1);
  await expect(menu.getByRole('button', { name: '운영자' })).toHaveCount(0);
  await expect(page.getByText(/^대사 불일치/)).toBeVisible();

  // The daily reconciliation: the start-up's catch-up reconciled the day before.
  await menu.getByRole('button', { name: '대사' }).click();
  await expect(page.getByRole('heading', { name: '일일 대사' })).toBeVisible();
  await page
    .getByRole('button', { name: /대사 상세$/ })
    .first()
    .click();
  await expect(page.getByRole('region', { name: /^\d{4}-\d{2}-\d{2} 대사$/ })).toBeVisible();
  await page.screenshot({ path: join(shots, 'reconciliation.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(shots, 'reconciliation-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  await menu.getByRole('button', { name: '고객' }).click();
  await page.getByLabel('고객 검색 (고객 번호, 이메일 전체, 계좌번호 전체, 이름 일부)').fill(email);
  await page.getByRole('button', { name: '검색' }).click();
  const results = page.getByRole('region', { name: '검색 결과' });
  // Masked in the list: the e-mail is not shown in clear.
  await expect(results.getByText(`#${customerId}`)).toBeVisible();
  await expect(results.getByText(email)).toHaveCount(0);
  await results.getByRole('button', { name: `고객 #${customerId} 열기` }).click();

  const detail = page.getByRole('region', { name: new RegExp(`고객 #${customerId}`) });
  const lift = detail.getByRole('button', { name: '정지 해제' });
  await expect(lift).toBeVisible();
  await expect(detail.getByTestId('personal-email')).toHaveText(/^op\*\*@example\.com$/);
  await page.screenshot({ path: join(shots, 'customer.png'), fullPage: true });
  // The confirmation names the field with its own particle (이메일을, not 이메일을(를)); backing out reveals nothing.
  await detail.getByRole('button', { name: '보기' }).nth(1).click();
  await page.getByRole('dialog').getByLabel(/사유/).fill('본인 확인 통화');
  await page.getByRole('dialog').getByRole('button', { name: '다음' }).click();
  await expect(page.getByRole('dialog')).toContainText('이메일을 가리지 않고 봅니다. 감사 기록에 남아요.');
  await page.screenshot({ path: join(shots, 'reveal-confirm.png') });
  await page.getByRole('dialog').getByRole('button', { name: '취소' }).click();
  await lift.click();
  await page.screenshot({ path: join(shots, 'action-dialog.png') });
  await confirmWithReason(page, '입금 확인 후 해제');
  await expect(page.getByText('정지 해제 완료')).toBeVisible();
  await expect(detail.getByRole('button', { name: '결제 정지' })).toBeVisible();

  // A new customer is bronze: the grade's 100,000원 a month, lowered to 50,000원.
  await detail.getByRole('button', { name: '한도 변경' }).click();
  await page
    .getByRole('dialog')
    .getByLabel(/새 월 한도/)
    .fill('50000');
  await confirmWithReason(page, '소득 확인 전까지 낮춤');
  await expect(detail.getByTestId('limit')).toHaveText('50,000원');

  await menu.getByRole('button', { name: '감사 기록' }).click();
  const log = page.getByRole('region', { name: '감사 기록' });
  await log.getByLabel('대상 번호').fill(String(customerId));
  await log.getByRole('button', { name: '적용' }).click();
  const row = log.getByRole('row').filter({ hasText: '입금 확인 후 해제' });
  await expect(row).toContainText('정지 해제');
  await expect(row).toContainText('RISK');
  // Before → after in words: no true, null or bare number.
  await expect(row.getByRole('cell').last()).toHaveText('결제 정지 → 해제, 운영자 정지 → 해제');
  const suspendRow = log.getByRole('row').filter({ hasText: 'e2e: 명의 도용 의심' });
  await expect(suspendRow).toContainText('결제 정지');
  await expect(suspendRow.getByRole('cell').last()).toHaveText('결제 정상 → 정지, 운영자 정지 없음 → 정지');
  const limitRow = log.getByRole('row').filter({ hasText: '소득 확인 전까지 낮춤' });
  await expect(limitRow).toContainText('한도 변경');
  await expect(limitRow.getByRole('cell').last()).toHaveText('월 한도 100,000원 → 50,000원');
  await expect(log.getByRole('table')).not.toContainText(/true|false|null/);
  await page.screenshot({ path: join(shots, 'audit.png') });

  // The customer, on their phone, is told: a 결제·청구 notice that opens /payment, whose card says it too.
  const sentence = '월 한도가 100,000원에서 50,000원으로 조정됐어요.';
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const customer = await phone.newPage();
    await openAsCustomer(customer, token);
    await customer.goto('/notifications');
    await settled(customer);
    await expect(customer.getByText(sentence)).toBeVisible();
    await expect(customer.getByText('월 한도 조정')).toBeVisible();
    await customer.screenshot({ path: join(shots, 'limit-notice-390.png') });
    await customer.getByText(sentence).click();
    await expect(customer).toHaveURL(/\/payment$/);
    await settled(customer);
    const card = customer.getByRole('region', { name: '사용 가능 금액' });
    await expect(card.getByTestId('limit-change')).toContainText(sentence);
    await expect(card).toContainText('월 한도 50,000원');
    await customer.screenshot({ path: join(shots, 'limit-payment-390.png') });
  } finally {
    await phone.close();
  }
});

test('a moderator hides a reported short and an anonymous feed no longer shows it', async ({
  page,
  request,
  browser,
}) => {
  // The feed's last short: the other specs look at the top of the feed.
  const target = await shortFromFeedEnd(request, 1);
  for (const reason of ['SPAM', 'HATE'] as const) {
    const token = await apiCustomer(request);
    const reported = await request.post('/api/shorts/reports', {
      headers: { authorization: `Bearer ${token}` },
      data: { targetType: 'SHORT', targetId: target.shortsId, reason },
    });
    expect(reported.ok(), await reported.text()).toBe(true);
  }

  await signInOnScreen(page, OPERATORS.MODERATOR);
  const menu = page.getByRole('navigation', { name: '운영 메뉴' });
  await expect(menu.getByRole('button', { name: '고객' })).toHaveCount(0);
  await menu.getByRole('button', { name: '신고 검토' }).click();
  const card = page.getByRole('article', { name: new RegExp(`: ${escapeRegExp(target.title)}$`) });
  await expect(card).toContainText('신고 2건');
  await page.screenshot({ path: join(shots, 'moderation.png') });
  await card.getByRole('button', { name: '숨김' }).click();
  await confirmWithReason(page, '스팸 신고 확인');
  await expect(page.getByText('쇼츠 숨김 완료')).toBeVisible();

  // A fresh, anonymous browser: the feed and the short's own page no longer have it.
  const anonymous = await browser.newContext();
  try {
    const after = await anonymous.request.get('/api/public/shorts/feeds?page=1&size=50');
    const ids = ((await after.json()).data as Array<{ shortsId: number }>).map((s) => s.shortsId);
    expect(ids).not.toContain(target.shortsId);
    expect((await anonymous.request.get(`/api/public/shorts/${target.shortsId}`)).ok()).toBe(false);
  } finally {
    await anonymous.close();
  }

  // Clean-up for the specs after this one: the admin restores the short.
  await closeCase(request, 'HIDDEN', { targetType: 'SHORT', targetId: target.shortsId }, 'RESTORE');
});

test('the moderation queue shows a reported comment with the short it is on, and opens that short in a new tab', async ({
  page,
  request,
}) => {
  // The feed's second-last short: the other specs look at the top of the feed, the hide test at its last.
  const target = await shortFromFeedEnd(request, 2);
  const author = await apiCustomer(request);
  const added = await request.post(`/api/shorts/feeds/${target.shortsId}/comments`, {
    headers: { authorization: `Bearer ${author}` },
    data: { content: 'e2e 신고될 댓글', gno: 0 },
  });
  expect(added.ok(), await added.text()).toBe(true);
  const commentId = (await added.json()).data.commentId as number;
  const reported = await request.post('/api/shorts/reports', {
    headers: { authorization: `Bearer ${await apiCustomer(request)}` },
    data: { targetType: 'COMMENT', targetId: commentId, reason: 'HATE' },
  });
  expect(reported.ok(), await reported.text()).toBe(true);

  // The admin's session: the moderator's code of this 30-second step is spent by the test before (each code once).
  await openWithAdminSession(page);
  await page.getByRole('navigation', { name: '운영 메뉴' }).getByRole('button', { name: '신고 검토' }).click();
  const card = page
    .getByRole('article', { name: `: ‘${target.title}’에 달린 댓글`, exact: false })
    .filter({ hasText: 'e2e 신고될 댓글' });
  await expect(card.getByRole('heading', { level: 3 })).toHaveText(`쇼츠 ‘${target.title}’ (새 창)에 달린 댓글`);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'moderation-comment.png') });
  const [short] = await Promise.all([
    page.waitForEvent('popup'),
    card.getByRole('link', { name: `‘${target.title}’ (새 창)` }).click(),
  ]);
  await expect(short).toHaveURL(new RegExp(`/shorts/feeds\\?shortsId=${target.shortsId}$`));
  await short.close();

  // Clean-up: the admin dismisses the case.
  await closeCase(request, 'OPEN', { targetType: 'COMMENT', targetId: commentId }, 'DISMISS');
});

test('admin screens: merchants, operators, a customer with statements and the whole audit log (screenshots)', async ({
  page,
}) => {
  await openWithAdminSession(page);
  const menu = page.getByRole('navigation', { name: '운영 메뉴' });
  await menu.getByRole('button', { name: '가맹점' }).click();
  await expect(page.getByRole('cell', { name: '#1' })).toBeVisible();
  await page.getByRole('button', { name: '상세' }).first().click();
  await expect(page.getByRole('heading', { name: '최근 결제 요청' })).toBeVisible();
  // The merchant's settlement: its terms and the admin's actions.
  const settlement = page.getByRole('region', { name: '정산' });
  await expect(settlement).toContainText('2.50% · D+1 영업일');
  await expect(settlement.getByRole('button', { name: '정산 계좌 등록' })).toBeVisible();
  await page.screenshot({ path: join(shots, 'merchants.png'), fullPage: true });
  await menu.getByRole('button', { name: '운영자' }).click();
  await expect(page.getByRole('cell', { name: 'risk@ops.ohgood.kr' })).toBeVisible();
  await page.screenshot({ path: join(shots, 'staff.png') });

  // The demo customer's page: six months of statements, each with its lines, payments with refund buttons.
  await menu.getByRole('button', { name: '고객' }).click();
  await page.getByLabel('고객 검색 (고객 번호, 이메일 전체, 계좌번호 전체, 이름 일부)').fill('demo@ohgood.kr');
  await page.getByRole('button', { name: '검색' }).click();
  await page
    .getByRole('button', { name: /^고객 #\d+ 열기$/ })
    .first()
    .click();
  const statement = page.locator('details').first();
  await statement.locator('summary').click();
  await expect(statement.getByRole('row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: '환불' }).first()).toBeVisible();
  await page.screenshot({ path: join(shots, 'customer-demo.png'), fullPage: true });

  // Every row the specs before wrote (suspend, lift, limit, hide, restore, dismiss) reads in words.
  await menu.getByRole('button', { name: '감사 기록' }).click();
  const log = page.getByRole('region', { name: '감사 기록' });
  const cleanUps = log.getByRole('row').filter({ hasText: 'e2e 정리' });
  await expect(cleanUps.filter({ hasText: '복구' }).first()).toContainText('숨김 → 종결');
  await expect(cleanUps.filter({ hasText: '기각' }).first()).toContainText('검토 대기 → 종결');
  await expect(log.getByRole('table')).not.toContainText(/true|false|null/);
  await page.screenshot({ path: join(shots, 'audit-all.png'), fullPage: true });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
