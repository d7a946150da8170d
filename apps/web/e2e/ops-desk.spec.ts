import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, uniqueEmail } from './helpers';
import { openConsole, riskSession } from './staff-session';

/*
 * The operator's desk end to end at a desktop's 1440×900: risk signs in, follows a home count to its work list,
 * opens a customer from a list, adds a contact note with a promise-to-pay date and sees it on the customer's
 * timeline. Screenshots of the list and the customer (desktop, and a phone's 390×844) go to e2e/.tmp/desk.
 */

const shots = join(import.meta.dirname, '.tmp', 'desk');

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

test('from a home count to a list, a customer, a note with a promise date on the timeline', async ({
  page,
  request,
}) => {
  mkdirSync(shots, { recursive: true });
  // A new customer: autopay is on and waits for consent, so they head the pending list (newest first).
  await apiCustomer(request, uniqueEmail('desk'));
  await openConsole(page, await riskSession(request));

  const title = await page.getByRole('heading', { name: /^오늘의 현황 \(\d{4}-\d{2}-\d{2}\)$/ }).textContent();
  const appToday = /\d{4}-\d{2}-\d{2}/.exec(title ?? '')?.[0] as string;
  await page.getByRole('button', { name: /^연체 고객 \d+명 목록 보기$/ }).click();
  await expect(page.getByRole('heading', { name: '업무 목록' })).toBeVisible();
  await expect(page.getByRole('button', { name: '연체 고객', pressed: true })).toBeVisible();

  await page.getByRole('button', { name: '자동이체 인증 대기' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('row').nth(1)).toContainText('출금 동의');
  await page.screenshot({ path: join(shots, 'lists-1440.png'), fullPage: true });
  await table.getByRole('button', { name: /열기$/ }).first().click();

  const form = page.getByRole('form', { name: '상담 메모 남기기' });
  await form.getByLabel('결과').selectOption('PROMISED');
  // Five days after the app's today (its clock may run shifted, CLOCK_START), as the home's title read it.
  const promise = new Date(Date.parse(`${appToday}T00:00:00Z`) + 5 * 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('납부 약속일 (선택)').fill(promise);
  await form.getByLabel('메모').fill('급여일에 입금하겠다고 함');
  await form.getByRole('button', { name: '메모 저장' }).click();
  await expect(page.getByText('상담 메모를 남겼어요.')).toBeVisible();

  const timeline = page.getByRole('region', { name: '타임라인' });
  await expect(timeline.getByRole('listitem').first()).toContainText(`납부 약속 ${promise} — 급여일에 입금하겠다고 함`);
  await page.screenshot({ path: join(shots, 'customer-1440.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(shots, 'customer-390.png'), fullPage: false });
  await page.getByRole('button', { name: '업무 목록' }).click();
  await page.screenshot({ path: join(shots, 'lists-390.png'), fullPage: false });
});
