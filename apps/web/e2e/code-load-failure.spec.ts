import { expect } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, openAsCustomer, recordAlerts, signUpAndLogIn } from './helpers';

const NOT_LOADED = '화면을 불러오지 못했습니다. 네트워크 연결을 확인해주세요.';

// A page whose code does not arrive (a dropped connection on the way to a new screen) fails inside the layout:
// the header and the menu stay, another page opens, and the retry loads the page again.
test('a page whose chunk fails to load shows the failure in Korean with a retry, and the app stays usable', async ({
  page,
}) => {
  const alerts = recordAlerts(page);
  const dropped = '**/assets/mypage-route-*.js';
  await page.route(dropped, (route) => route.abort('internetdisconnected'));
  await signUpAndLogIn(page);

  const menu = page.getByRole('navigation', { name: '주요 메뉴' });
  await menu.getByRole('link', { name: 'Mypage' }).click();
  const failure = page.getByRole('alert').filter({ hasText: NOT_LOADED });
  await expect(failure).toContainText(`오류가 발생했습니다: ${NOT_LOADED}`);
  await expect(failure.getByRole('button', { name: '다시 시도' })).toBeVisible();
  // The browser's English never reaches the screen, and the layout around the failure is still there.
  await expect(page.locator('body')).not.toContainText('dynamically imported module');
  await expect(page.getByRole('link', { name: '오굿페이 홈' })).toBeVisible();

  // Another page opens in the same place (the header's bell): the failure belonged to the page that failed.
  await page.getByTestId('bell').click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { name: '알림', exact: true })).toBeVisible();
  await expect(failure).toHaveCount(0);

  // Back to it, and once the connection is back, the retry brings the page.
  await menu.getByRole('link', { name: 'Mypage' }).click();
  await expect(failure).toBeVisible();
  await page.unroute(dropped);
  await failure.getByRole('button', { name: '다시 시도' }).click();
  await expect(page).toHaveURL(/\/mypage$/);
  await expect(page.getByTestId('grade-card')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: '화면을' })).toHaveCount(0);
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});

// A part below the fold whose code does not arrive fails in its own place: the page above it stays usable.
test('the unpaid list whose chunk fails to load says so in its place, and /payment stays usable', async ({ page }) => {
  const alerts = recordAlerts(page);
  await page.route('**/assets/unpaid-list-*.js', (route) => route.abort('internetdisconnected'));
  await signUpAndLogIn(page);
  await page.goto('/payment');
  const failure = page.getByRole('alert').filter({ hasText: NOT_LOADED });
  await expect(failure).toContainText(`오류가 발생했습니다: ${NOT_LOADED}`);
  await expect(failure.getByRole('button', { name: '다시 시도' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('dynamically imported module');
  await expect(page.getByTestId('available-amount')).toBeVisible();
  await expect(page.getByRole('button', { name: '즉시 납부' })).toBeEnabled();
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});

// Home's parts: this month's card fails in its place, and the roulette that cannot open says so and stays shut.
test('on Home, a card or the roulette whose code fails to load fails alone, and Home stays', async ({ page }) => {
  const alerts = recordAlerts(page);
  await page.route('**/assets/this-month-card-*.js', (route) => route.abort('internetdisconnected'));
  await page.route('**/assets/awarding-roulette-*.js', (route) => route.abort('internetdisconnected'));
  await signUpAndLogIn(page);
  const failure = page.getByRole('alert').filter({ hasText: NOT_LOADED });
  await expect(failure).toHaveCount(1);
  await expect(failure.getByRole('button', { name: '다시 시도' })).toBeVisible();

  await page.getByRole('button', { name: '출석체크' }).click();
  await expect.poll(() => alerts).toContain(NOT_LOADED);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Home is all there: its menu works and the header stays.
  await expect(page.getByRole('button', { name: '출석체크' })).toBeEnabled();
  await expect(page.getByRole('link', { name: '오굿페이 홈' })).toBeVisible();
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});

// A question that cannot be asked is answered "no": nothing the customer did not confirm happens.
test('a confirm sheet whose code fails to load keeps autopay on and says why', async ({ page, request }) => {
  const alerts = recordAlerts(page);
  await page.route('**/assets/confirm-sheet-*.js', (route) => route.abort('internetdisconnected'));
  await openAsCustomer(page, await apiCustomer(request));
  await page.goto('/payment');
  const toggle = page.getByRole('switch', { name: /자동 납부/ });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect.poll(() => alerts).toContain(NOT_LOADED);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(toggle).toBeChecked();
  await expect(toggle).toBeEnabled();
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});

// A sheet opened on a tap whose code does not arrive says why and stays shut: the feed under it keeps playing.
test('on the shorts feed, a comment panel or share sheet whose code fails to load says so, and the feed stays', async ({
  page,
}) => {
  const alerts = recordAlerts(page);
  await page.route('**/assets/comment-panel-*.js', (route) => route.abort('internetdisconnected'));
  await page.route('**/assets/share-dialog-*.js', (route) => route.abort('internetdisconnected'));
  await signUpAndLogIn(page);
  await page.goto('/shorts/feeds');
  const slide = page.getByTestId('short-slide').filter({ has: page.getByTestId('active-video') });
  await expect(slide.getByTestId('active-video')).toBeVisible();

  await slide.getByRole('button', { name: /^댓글/ }).click();
  await expect.poll(() => alerts).toContain(NOT_LOADED);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The same words are not toasted twice at once: the share sheet is tried once the first toast has gone.
  await expect(page.getByText(NOT_LOADED)).toHaveCount(0);
  await slide.getByRole('button', { name: '공유' }).click();
  await expect.poll(() => alerts.filter((a) => a === NOT_LOADED).length).toBe(2);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The feed is all there, not replaced by a failure: its video and its buttons still answer.
  await expect(slide.getByTestId('active-video')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: NOT_LOADED })).toHaveCount(0);
  const like = slide.getByRole('button', { name: '좋아요' });
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('body')).not.toContainText('dynamically imported module');
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});
