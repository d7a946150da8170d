import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, apiPay, uniqueEmail } from './helpers';
import { openConsole, riskSession } from './staff-session';

/*
 * 월말 보고서 end to end at a desktop's 1440×900 (docs/rules/operations.md#O14–O15): a customer pays a shop whose
 * request name is Hangul and starts with '=', risk opens the month's report, downloads the report and the month's
 * payments as CSV files and reads them back: the BOM, CRLF, Hangul intact, the formula defused, the customer's
 * name masked.
 */

const shots = join(import.meta.dirname, '.tmp', 'ops');

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

/** Clicks a download button and returns the saved file's bytes. */
async function downloaded(page: Page, button: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return readFile(await file.path());
}

test('risk downloads the month-end report and the month’s payments, and reads them back', async ({ page, request }) => {
  const customer = await apiCustomer(request, uniqueEmail('month-end'));
  await apiPay(request, customer, '=월말 김밥천국', 4_500);

  await openConsole(page, await riskSession(request));
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
