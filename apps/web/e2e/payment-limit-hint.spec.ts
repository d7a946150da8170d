import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, enterPin, merchantRequest, openAsCustomer } from './helpers';

/** Opens a 120,000원 request (over a new customer's 100,000원 limit) in the payment sheet. */
async function openOverLimit(page: Page, pinCode: string) {
  await enterPin(page, pinCode);
  const sheet = page.getByRole('dialog', { name: '결제하기' });
  await expect(sheet.getByRole('button', { name: '한도가 부족합니다.' })).toBeDisabled();
  return sheet;
}

test('the limit-gap hint suggests points only while unused points could cover part of the gap', async ({
  page,
  request,
}) => {
  const token = await apiCustomer(request);
  await openAsCustomer(page, token);

  // No points at all: the hint says by how much, and nothing about points.
  const first = await merchantRequest(request, '태블릿', 120_000);
  let sheet = await openOverLimit(page, first.pinCode);
  const gap = sheet.getByTestId('limit-gap');
  await expect(gap).toHaveText('20,000원 더 필요해요.');
  await page.screenshot({ path: 'e2e/.tmp/limit-gap-no-points.png' });

  // With the roulette's points, the same gap offers them.
  const spin = await request.post('/api/checkin/roulette', { headers: { authorization: `Bearer ${token}` } });
  const points: number = (await spin.json()).data.pointBalance;
  expect(points).toBeGreaterThan(0);
  const second = await merchantRequest(request, '태블릿', 120_000);
  sheet = await openOverLimit(page, second.pinCode);
  await expect(gap).toHaveText('20,000원 더 필요해요. 포인트를 쓰면 줄일 수 있어요.');
  await page.screenshot({ path: 'e2e/.tmp/limit-gap-with-points.png' });

  // Every point in use: the gap is smaller and there are no points left to suggest.
  await sheet.getByRole('button', { name: '전액사용' }).click();
  await expect(gap).toHaveText(`${(20_000 - points).toLocaleString('ko-KR')}원 더 필요해요.`);
});
