import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { logInAsDemo, recordAlerts, signUpAndLogIn } from './helpers';

interface Line {
  paymentId: number;
  requestName: string;
  price: number;
}
interface Info {
  balance: number;
  extension: boolean;
  unpaidBills: Line[][];
}
interface Status {
  today: string;
  statements: Array<{ month: string; extension: string | null; status: string; amount: number }>;
}

/** The HTTP body of a GET as the logged-in customer. */
async function getBody<T>(page: Page, request: APIRequestContext, url: string): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
  const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as T;
}

const won = (n: number) => `${n.toLocaleString('ko-KR')}원`;

test('the demo customer extends last month’s statement, then pays selected bills; the page and API agree', async ({
  page,
  request,
}) => {
  const alerts = recordAlerts(page);
  await logInAsDemo(page);

  // Home: this month's card shows what /payment lists for the current month.
  const before = await getBody<Info>(page, request, '/api/payment/info');
  const { data: status } = await getBody<{ data: Status }>(page, request, '/api/payment/statements');
  const [previous, current] = before.unpaidBills as [Line[], Line[]];
  expect(previous.length).toBeGreaterThan(0);
  expect(current.length).toBeGreaterThan(0);
  const currentTotal = current.reduce((sum, l) => sum + l.price, 0);
  await expect(page.getByTestId('this-month-amount')).toHaveText(won(currentTotal));

  await page.goto('/payment');
  await expect(page.getByRole('heading', { name: '납부하기' })).toBeVisible();
  await expect(page.getByTestId('available-amount')).toHaveText(won(before.balance));
  const oldest = status.statements[0];
  if (!oldest) throw new Error('the demo customer has no statement');
  const dueCard = page.getByTestId(`due-${oldest.month}`);
  await expect(dueCard).toContainText(won(oldest.amount));

  // Extension: the e2e server's clock stands on the 10th (playwright.config.ts), before the 15th due date.
  expect(oldest.extension).toBeNull();
  await expect(dueCard).toContainText('15일');
  const badge = page.getByTestId('group-badge').first();
  await expect(badge).toHaveText('납부 기한 도래');
  await page.getByRole('button', { name: '연장 신청' }).click();
  const modal = page.getByRole('dialog', { name: '납부 연장 신청' });
  await modal.getByRole('button', { name: '연장 신청하기' }).click();
  await expect(page.getByRole('dialog', { name: '알림' })).toContainText('연장 신청되었습니다.');
  await page.getByRole('button', { name: '확인' }).click();
  await expect(dueCard).toContainText('연장됨');
  await expect(dueCard).toContainText('말일');
  await expect(badge).toHaveText('연장됨 · 말일 납부');
  expect((await getBody<Info>(page, request, '/api/payment/info')).extension).toBe(true);
  await page.getByRole('button', { name: '연장 신청' }).click();
  await expect.poll(() => alerts).toContain('이미 연장 신청되었습니다.');

  // Current-month lines are locked while last month is unpaid; select-all covers last month only.
  for (const line of current) {
    await expect(page.getByLabel(`${line.requestName} ${won(line.price)} 선택`)).toBeDisabled();
  }
  await page.getByRole('button', { name: '즉시 납부' }).click();
  await expect.poll(() => alerts).toContain('선택된 결제 내역이 없습니다.');
  await page.getByLabel('전체 선택').check();
  const previousTotal = previous.reduce((sum, l) => sum + l.price, 0);
  await expect(page.getByText(`선택 ${previous.length}건`)).toContainText(won(previousTotal));
  await page.getByRole('button', { name: '즉시 납부' }).click();
  const repay = page.getByRole('dialog', { name: '즉시 납부' });
  await repay.getByRole('button', { name: `${won(previousTotal)} 납부하기` }).click();
  await expect(page.getByRole('dialog', { name: '알림' })).toContainText('즉시 납부 신청되었습니다.');
  await page.getByRole('button', { name: '확인' }).click();

  // The page shows the new state: last month is gone, this month is unlocked.
  await expect(dueCard).toHaveCount(0);
  for (const line of previous)
    await expect(page.getByLabel(`${line.requestName} ${won(line.price)} 선택`)).toHaveCount(0);
  const [first] = current;
  if (!first) throw new Error('no current line');
  const firstBox = page.getByLabel(`${first.requestName} ${won(first.price)} 선택`);
  await expect(firstBox).toBeEnabled();

  // Paying a current-month line frees the limit at once.
  await firstBox.check();
  await page.getByRole('button', { name: '즉시 납부' }).click();
  await repay.getByRole('button', { name: `${won(first.price)} 납부하기` }).click();
  await expect(page.getByRole('dialog', { name: '알림' })).toContainText('즉시 납부 신청되었습니다.');
  await page.getByRole('button', { name: '확인' }).click();
  await expect(page.getByTestId('available-amount')).toHaveText(won(before.balance + first.price));

  const after = await getBody<Info>(page, request, '/api/payment/info');
  const paidIds = [...previous, first].map((l) => l.paymentId);
  expect(after.unpaidBills.flat().some((l) => paidIds.includes(l.paymentId))).toBe(false);
  expect(after.unpaidBills.flat()).toHaveLength(current.length - 1);
  expect(after.balance).toBe(before.balance + first.price);
  expect(alerts).not.toContain('즉시 납부 신청에 실패했습니다.');

  // Payment history marks the repaid lines: this month's first line and all of last month's.
  await page.goto('/payment/details');
  const row = (name: string) => page.getByRole('button', { name: new RegExp(name) }).first();
  await expect(row(first.requestName)).toContainText('납부 완료');
  for (const line of current.slice(1)) await expect(row(line.requestName)).toContainText('납부 예정');
  await page.getByRole('button', { name: '이전 달' }).click();
  for (const line of previous) await expect(row(line.requestName)).toContainText('납부 완료');

  // Home agrees: this month's amount still counts the repaid line (paid or not, docs/rules/bills-and-grades.md#B14).
  await page.goto('/');
  await expect(page.getByTestId('this-month-amount')).toHaveText(won(currentTotal));
});

test('the attendance roulette awards once and refuses a second spin', async ({ page, request }) => {
  recordAlerts(page);
  await signUpAndLogIn(page);
  await expect(page.getByTestId('this-month-card')).toContainText('이번 달 적립 0P');
  await page.getByRole('button', { name: '출석체크' }).click();
  const modal = page.getByRole('dialog', { name: '출석체크 룰렛' });
  await modal.getByRole('button', { name: '룰렛 돌리기' }).click();
  await expect(modal.getByRole('button', { name: '돌리는 중...' })).toBeDisabled();
  const result = modal.getByTestId('roulette-result');
  await expect(result).toBeVisible({ timeout: 8_000 });
  const prize = Number(((await result.locator('strong').textContent()) ?? '').replace(/\D/g, ''));
  expect([5, 10, 20, 30, 40, 50]).toContain(prize);
  await modal.getByRole('button', { name: '확인' }).click();
  await expect(page.getByTestId('this-month-card')).toContainText(`이번 달 적립 ${prize}P`);

  await page.getByRole('button', { name: '출석체크' }).click();
  await expect(page.getByTestId('attendance-done')).toContainText('이미 출석체크를 완료했어요');
  await expect(page.getByRole('button', { name: '룰렛 돌리기' })).toHaveCount(0);

  // The server refuses a second spin too, whatever the client sends.
  const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
  const again = await request.post('/api/checkin/roulette?point=50', { headers: { authorization: `Bearer ${token}` } });
  expect(again.status()).toBe(409);
});
