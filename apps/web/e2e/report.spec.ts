import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { logInAsDemo } from './helpers';

interface Score {
  ohgoodScore: number;
  band: string;
  message: string;
  factors: Array<{ key: string; label: string; contribution: number }>;
}
interface Analysis {
  months: string[];
  monthly: Record<string, { totalSpend: number; categories: Array<{ name: string; amount: number }> }>;
  selectedMonth: string;
}
interface AdviceReport {
  advices: Array<{ id: string; title: string; refs: Array<{ label: string; path: string }> }>;
}

const won = (n: number) => `${n.toLocaleString('ko-KR')}원`;

/** The same calls the page makes, straight to the API with the page's token. */
async function postData<T>(page: Page, request: APIRequestContext, url: string, data?: unknown): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
  const res = await request.post(url, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.ok()).toBe(true);
  return (await res.json()).data as T;
}

test('the demo customer’s report: gauge and reasons, this month, bars with a month switch, advice carousel', async ({
  page,
  request,
}) => {
  await logInAsDemo(page);
  const score = await postData<Score>(page, request, '/api/dash/saymyname');
  const analysis = await postData<Analysis>(page, request, '/api/dash/analyze', { windowMonths: 3 });
  const advice = await postData<AdviceReport>(page, request, '/api/dash/advice');

  // Home's 리포트 link leads here; the three report calls go out (the lower cards' as they mount, when idle).
  const calls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/dash/') && req.method() === 'POST') calls.push(new URL(req.url()).pathname);
  });
  await page.getByRole('link', { name: '리포트' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: '오굿 리포트' })).toBeVisible();

  // Score gauge: the server's score, its band and message; the arc is filled score / 1000.
  const gauge = page.getByTestId('score-gauge');
  await expect(gauge).toHaveAccessibleName(`오굿 점수 1000점 만점에 ${score.ohgoodScore}점, ${score.band}등급`);
  await expect(gauge).toContainText(String(score.ohgoodScore));
  await expect(gauge.locator('path[data-percent]')).toHaveAttribute(
    'data-percent',
    (score.ohgoodScore / 10).toFixed(1),
  );
  await expect(page.getByTestId('score-message')).toHaveText(score.message);
  const top = score.factors[0];
  if (!top) throw new Error('no factors');
  await expect(page.getByTestId('score-factors').locator('li').first()).toContainText(top.label);
  await expect(page.getByRole('heading', { name: '점수를 올리려면' })).toBeVisible();
  await expect
    .poll(() => [...new Set(calls)].sort())
    .toEqual(['/api/dash/advice', '/api/dash/analyze', '/api/dash/saymyname']);

  // This month's card is Home's.
  await expect(page.getByTestId('this-month-card')).toBeVisible();

  // Spending: one bar per month, the current one selected; tapping another month switches the list.
  await expect(page.getByRole('heading', { name: '소비 패턴 분석' })).toBeVisible();
  for (const month of analysis.months) await expect(page.getByTestId(`bar-${month}`)).toBeVisible();
  const current = analysis.selectedMonth;
  await expect(page.getByTestId(`bar-${current}`)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('spending-total')).toContainText(won(analysis.monthly[current]?.totalSpend ?? 0));
  const earlier = analysis.months.find((m) => m !== current && (analysis.monthly[m]?.totalSpend ?? 0) > 0);
  if (!earlier) throw new Error('the demo customer has no earlier spending');
  await page.getByTestId(`bar-${earlier}`).click();
  await expect(page.getByTestId(`bar-${earlier}`)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId(`bar-${current}`)).toHaveAttribute('aria-pressed', 'false');
  const earlierMonth = analysis.monthly[earlier];
  await expect(page.getByTestId('spending-total')).toContainText(won(earlierMonth?.totalSpend ?? 0));
  await expect(page.getByTestId('category-list').locator('li')).toHaveCount(earlierMonth?.categories.length ?? 0);
  await expect(page.getByTestId('category-list').locator('li').first()).toContainText(
    earlierMonth?.categories[0]?.name ?? '',
  );

  // Advice carousel: one slide per advice; a dot brings the second into view; refs are buttons (links).
  const slides = page.getByTestId('advice-slide');
  await expect(slides).toHaveCount(advice.advices.length);
  await expect(slides.first()).toContainText(advice.advices[0]?.title ?? '');
  if (advice.advices.length > 1) {
    await page.getByRole('button', { name: '2번째 조언 보기' }).click();
    await expect(slides.nth(1)).toBeInViewport({ ratio: 0.9 });
    await expect(page.getByRole('button', { name: '2번째 조언 보기' })).toHaveAttribute('aria-current', 'true');
    // A swipe scrolls the snapping track: the dots follow the scroll position.
    await page.getByTestId('advice-track').evaluate((el) => el.scrollTo({ left: 0 }));
    await expect(page.getByRole('button', { name: '1번째 조언 보기' })).toHaveAttribute('aria-current', 'true');
    await page.getByTestId('advice-track').evaluate((el) => el.scrollTo({ left: el.clientWidth }));
    await expect(page.getByRole('button', { name: '2번째 조언 보기' })).toHaveAttribute('aria-current', 'true');
  }
  await page.screenshot({ path: 'e2e/.tmp/dashboard.png', fullPage: true });

  const ref = advice.advices[advice.advices.length > 1 ? 1 : 0]?.refs[0];
  if (!ref) throw new Error('advice without a ref');
  await slides
    .nth(advice.advices.length > 1 ? 1 : 0)
    .getByRole('link', { name: ref.label })
    .click();
  await expect(page).toHaveURL(new RegExp(`${ref.path}$`));

  // The back button returns to the report's previous page.
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: '뒤로 가기' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a failing card fails alone and comes back with 다시 시도', async ({ page }) => {
  await logInAsDemo(page);
  let failures = 0;
  await page.route('**/api/dash/analyze', async (route) => {
    if (failures === 0) {
      failures += 1;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, code: 'INTERNAL', message: '서버 오류' }),
      });
    } else {
      await route.continue();
    }
  });
  await page.goto('/dashboard');

  const spending = page.getByRole('region', { name: '소비 패턴 분석' });
  await expect(spending.getByRole('alert')).toHaveText(/데이터 로드 실패: 잠시 후에 다시 시도해주세요\./);
  // The other cards are unaffected.
  await expect(page.getByTestId('score-message')).toBeVisible();
  await expect(page.getByTestId('advice-slide').first()).toBeVisible();
  await page.screenshot({ path: 'e2e/.tmp/dashboard-error.png', fullPage: true });

  await spending.getByRole('button', { name: '다시 시도' }).click();
  await expect(spending.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('spending-total')).toBeVisible();
  expect(failures).toBe(1);
});
