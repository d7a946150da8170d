import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AUTOPAY_CONSENT } from '@ohgood/contract/autopay';
import { addMonths } from '@ohgood/contract/kst';
import { type APIRequestContext, expect } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, uniqueEmail } from './helpers';
import { openConsole, riskSession } from './staff-session';

/*
 * Collections end to end at a desktop's 1440×900 (docs/rules/operations.md#O17, #O18): the home's count of
 * refused debits opens the list, a row opens the customer, risk retries the debit now and sees the bank's
 * answer, notes the call with a promise to pay, and the timeline shows the note, the refusal and the paid retry.
 */

const shots = join(import.meta.dirname, '.tmp', 'ops');

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

/** A customer with autopay on (consent and 1원 인증 through the API, the code read from the sandbox bank). */
async function autopayCustomer(request: APIRequestContext, email: string) {
  const token = await apiCustomer(request, email, `4${String(Date.now()).slice(-10)}`);
  const headers = { authorization: `Bearer ${token}` };
  const on = await request.put('/api/payment/autopay', {
    headers,
    data: { autopay: true, consentVersion: AUTOPAY_CONSENT.version },
  });
  expect(on.ok()).toBe(true);
  expect((await request.post('/api/payment/autopay/verification', { headers })).ok()).toBe(true);
  const inbox = await request.get('/api/payment/autopay/sandbox-deposits', { headers });
  const [deposit] = (await inbox.json()).data as Array<{ depositorName: string }>;
  const confirmed = await request.post('/api/payment/autopay/verification/confirm', {
    headers,
    data: { code: deposit?.depositorName.slice(2) },
  });
  expect(confirmed.ok()).toBe(true);
}

test('from the home count to a refused debit, retried now with the bank’s answer', async ({ page, request }) => {
  mkdirSync(shots, { recursive: true });
  const token = await riskSession(request);
  const ops = { authorization: `Bearer ${token}` };
  const today = (await (await request.get('/api/ops/home', { headers: ops })).json()).date as string;
  const email = uniqueEmail('collect');
  await autopayCustomer(request, email);
  // The server's clock runs shifted (CLOCK_START): the setup dates its rows on it, not on this machine's.
  const serverNow = (await (await request.get('/api/ops/jobs', { headers: ops })).json()).now as string;
  execFileSync('npx', ['tsx', 'src/test/e2e-failed-debit.ts', email, serverNow], {
    cwd: join(import.meta.dirname, '../../server'),
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });

  await openConsole(page, token);
  const failures = page.getByRole('button', { name: /^자동납부 실패 \d+건 목록 보기$/ });
  await expect(failures).toBeVisible();
  await page.screenshot({ path: join(shots, 'collections-home.png') });
  await failures.click();

  await expect(page.getByRole('heading', { name: '업무 목록' })).toBeVisible();
  await expect(page.getByRole('button', { name: '오늘 실패한 자동이체', pressed: true })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: '잔액 부족' }).last();
  await expect(row).toContainText('23,000원');
  await page.screenshot({ path: join(shots, 'collections-list.png') });
  await row.getByRole('button', { name: /열기$/ }).click();

  const debits = page.getByRole('table', { name: '자동 납부 출금 내역' });
  await expect(debits).toContainText('잔액 부족');
  await debits.getByRole('button', { name: '지금 다시 출금' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/사유/).fill('고객이 잔액을 채웠다고 전화함');
  await dialog.getByRole('button', { name: '다음' }).click();
  await dialog.getByRole('button', { name: '실행' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByTestId('retry-answer')).toHaveText(
    `${addMonths(today.slice(0, 7), -1)} 재출금 결과: 출금 완료 · 23,000원`,
  );
  await expect(debits.getByRole('row').nth(1)).toContainText('출금 완료');
  await expect(debits.getByRole('button', { name: '지금 다시 출금' })).toHaveCount(0);
  await page.getByTestId('retry-answer').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'collections-retried.png') });

  // The call that led to the retry, with a promise to pay; the timeline shows both, the debit paid.
  const form = page.getByRole('form', { name: '상담 메모 남기기' });
  await form.getByLabel('결과').selectOption('PROMISED');
  const promise = new Date(Date.parse(`${today}T00:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('납부 약속일 (선택)').fill(promise);
  await form.getByLabel('메모').fill('잔액을 채웠다고 전화함');
  await form.getByRole('button', { name: '메모 저장' }).click();
  const timeline = page.getByRole('region', { name: '타임라인' });
  await expect(
    timeline.getByRole('listitem').filter({ hasText: `납부 약속 ${promise} — 잔액을 채웠다고 전화함` }),
  ).toHaveCount(1);
  await expect(timeline.getByRole('listitem').filter({ hasText: '23,000원 · 출금 완료' })).toHaveCount(1);
  await expect(timeline.getByRole('listitem').filter({ hasText: '은행 응답: 잔액 부족' })).not.toHaveCount(0);

  // The jobs page: every job with its schedule and next run.
  await page.getByRole('navigation', { name: '운영 메뉴' }).getByRole('button', { name: '예약 작업' }).click();
  await expect(page.getByRole('row', { name: /자동 납부/ })).toContainText('매일 10:00');
  // The recurring jobs too, with their scope: the registry's every row, not only the calendar's.
  const webhooks = page.getByRole('row', { name: /웹훅 발송/ });
  await expect(webhooks).toContainText('5분마다');
  await expect(webhooks).toContainText('클러스터에서 한 번');
  await expect(page.getByRole('row', { name: /트랜스코딩 인계/ })).toContainText('서버마다');
  await page.screenshot({ path: join(shots, 'jobs.png') });
});
