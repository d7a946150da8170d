import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, apiPay, openAsCustomer, recordAlerts } from './helpers';

const won = (n: number) => `${n.toLocaleString('ko-KR')}원`;

test('a payment on another device refreshes the home card, the available amount and the point balance live', async ({
  page,
  context,
  request,
}) => {
  const token = await apiCustomer(request);
  const alerts = recordAlerts(page);
  const headers = { authorization: `Bearer ${token}` };
  // Today's roulette gives the customer points to spend.
  const spin = await request.post('/api/checkin/roulette', { headers });
  expect(spin.ok()).toBe(true);
  const points: number = (await spin.json()).data.pointBalance;
  expect(points).toBeGreaterThan(0);
  // Its notice (혜택) is dispatched after the commit: wait for it, so the bell's count below is the payment's.
  await expect
    .poll(async () => (await (await request.get('/api/notifications/unread-count', { headers })).json()).data.unread)
    .toBe(1);

  // One tab on home, another on 납부하기; neither is reloaded after this.
  // Each tab's live stream is open (its answer has come) before the payment lands: a stream starts from now.
  const streamOpen = (tab: Page) =>
    tab.waitForResponse((res) => res.url().endsWith('/api/notifications/stream') && res.ok());
  await openAsCustomer(page, token);
  const homeStream = streamOpen(page);
  await page.goto('/');
  await homeStream;
  const card = page.getByTestId('this-month-card');
  await expect(card).toContainText(`보유 ${points.toLocaleString('ko-KR')}P`);
  await expect(page.getByTestId('this-month-amount')).toHaveText('0원');
  await expect(page.getByTestId('notice-badge')).toHaveText('1');
  const bills = await context.newPage();
  await openAsCustomer(bills, token);
  const billsStream = streamOpen(bills);
  await bills.goto('/payment');
  await billsStream;
  const available = bills.getByTestId('available-amount');
  await expect(available).toBeVisible();
  const limitBefore = Number(((await available.textContent()) ?? '').replace(/\D/g, ''));
  expect(limitBefore).toBeGreaterThan(0);

  // Every point is spent on a payment made on another device (the API, as a phone would).
  // At 30,000원 the points it earns (0.2%, 59P) are more than any roulette prize (at most 50P), so the
  // balance after it differs from the one before.
  const paid = await apiPay(request, token, '아이스 라떼', 30_000, points);
  const billed = 30_000 - points;
  expect(paid.pointBalance).not.toBe(points);

  // The bell counts it, and everything the payment changed shows the new figures without a reload.
  await expect(page.getByTestId('notice-badge')).toHaveText('2');
  await expect(page.getByTestId('this-month-amount')).toHaveText(won(billed));
  await expect(card).toContainText(`보유 ${paid.pointBalance.toLocaleString('ko-KR')}P`);
  await expect(card).not.toContainText(`보유 ${points.toLocaleString('ko-KR')}P`);
  await expect(available).toHaveText(won(paid.balance));
  expect(paid.balance).toBe(limitBefore - billed);
  await page.screenshot({ path: 'e2e/.tmp/live-home-after-payment.png' });
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});
