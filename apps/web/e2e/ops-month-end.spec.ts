import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { apiCustomer, apiPay, uniqueEmail } from './helpers';

/*
 * 월말 보고서 end to end at a desktop's 1440×900 (docs/rules/operations.md#O14–O15): a customer pays a shop whose
 * request name is Hangul and starts with '=', risk opens the month's report, downloads the report and the month's
 * payments as CSV files and reads them back: the BOM, CRLF, Hangul intact, the formula defused, the customer's
 * name masked.
 */

const RISK = { email: 'risk@ops.ohgood.kr', secret: 'XLYB565EMYZ3HONA3KRDCKY5QGLFVHQ6' };
const shots = join(import.meta.dirname, '.tmp', 'ops');

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

/**
 * Risk's console session through the API. A TOTP code counts once; a spec before this one may have spent this
 * 30-second step's, so the next step's (within the one step of drift allowed) is the fallback.
 */
async function riskSession(request: APIRequestContext): Promise<string> {
  const first = await request.post('/api/ops/auth/sign-in', {
    data: { email: RISK.email, password: 'ohgood-ops-123!' },
  });
  expect(first.ok()).toBe(true);
  const token = (await first.json()).token as string;
  const now = Math.floor(Date.now() / 1000);
  for (const epoch of [now, now + 30]) {
    const second = await request.post('/api/ops/auth/totp', {
      headers: { authorization: `Bearer ${token}` },
      data: { code: await generate({ secret: RISK.secret, epoch }) },
    });
    if (second.ok()) return token;
  }
  throw new Error('risk could not pass the TOTP step');
}

/** Clicks a download button and returns the saved file's bytes. */
async function downloaded(page: Page, button: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return readFile(await file.path());
}

test('risk downloads the month-end report and the month’s payments, and reads them back', async ({ page, request }) => {
  const customer = await apiCustomer(request, uniqueEmail('month-end'));
  await apiPay(request, customer, '=월말 김밥천국', 4_500);

  const token = await riskSession(request);
  await page.addInitScript((t) => sessionStorage.setItem('opsToken', t), token);
  await page.goto('/ops');
  await page.getByRole('navigation', { name: '운영 메뉴' }).getByRole('button', { name: '월말 보고서' }).click();
  await expect(page.getByRole('heading', { name: '월말 보고서' })).toBeVisible();

  // This month (the server's clock runs on the 10th): the payment just made is on its bill.
  const month = await page.evaluate(() => new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 7));
  await page.getByLabel('청구 월').fill(month);
  const bill = page.getByRole('table', { name: `${month} 청구` });
  await expect(bill).toBeVisible();
  await expect(page.getByRole('row', { name: /원장 고객 채권 일치/ })).toBeVisible();
  await page.screenshot({ path: join(shots, 'month-end.png'), fullPage: true });

  const report = await downloaded(page, '월말 보고서 CSV 내려받기');
  expect([...report.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const reportText = report.subarray(3).toString('utf8');
  expect(reportText.startsWith('구분,항목,건수,금액\r\n')).toBe(true);
  expect(reportText).toMatch(new RegExp(`^${month} 청구 \\(\\d{4}-\\d{2}-\\d{2} 기준\\),미납 잔액,\\d+,\\d+\\r$`, 'm'));
  expect(reportText).toContain(',원장 고객 채권,,');
  await expect(page.getByText('월말 보고서 파일을 내려받았어요.')).toBeVisible();

  const payments = await downloaded(page, '결제 내역 CSV 내려받기');
  expect([...payments.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = payments.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe(
    '결제 번호,결제 일시,고객 번호,고객명,가맹점,상품명,결제 금액,사용 포인트,청구 금액,적립 포인트,청구 월,상태',
  );
  const line = lines.find((l) => l.includes('월말 김밥천국'));
  expect(line).toContain(',김*굿,');
  expect(line).toContain(",'=월말 김밥천국,4500,");
  expect(lines.at(-1)).toBe('');
});
