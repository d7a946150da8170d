import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, apiPay, openAsCustomer, recordAlerts, settled, uniqueEmail } from './helpers';

/*
 * Autopay's consent and 1원 인증 at a 390×844 phone, against the real server and its sandbox bank, and an
 * early payment that meets an autopay debit in flight.
 */

const shots = join(import.meta.dirname, '.tmp');
let accounts = 0;
/** Each customer links an account of their own: one account is verified by one customer only. */
const ownAccount = () => `3${String(Date.now()).slice(-9)}${++accounts}`;

test('turning autopay on walks through consent and 1원 인증, ending with autopay on', async ({ page, request }) => {
  const alerts = recordAlerts(page);
  const token = await apiCustomer(request, uniqueEmail('autopay'), ownAccount());
  await openAsCustomer(page, token);
  await page.goto('/payment');
  await settled(page);

  // A new customer's autopay waits for consent and verification, and the card says so.
  const card = page.getByTestId('autopay-card');
  await expect(card.getByRole('status')).toContainText('출금 동의가 필요해요');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'autopay-pending.png') });
  await card.getByRole('link', { name: '출금 동의하고 계좌 인증하기' }).click();
  await expect(page).toHaveURL(/\/payment\/autopay$/);

  // Step 1: the words, then consent.
  await expect(page.getByRole('heading', { name: '자동 납부 출금 동의' })).toBeVisible();
  await page.screenshot({ path: join(shots, 'autopay-consent.png') });
  const agree = page.getByRole('button', { name: '동의하고 계속' });
  await expect(agree).toBeDisabled();
  await page.getByRole('checkbox', { name: /출금에 동의해요/ }).check();
  await agree.click();
  await expect.poll(() => alerts).toContain('출금에 동의했어요. 연결 계좌를 1원 인증하면 자동 납부가 시작돼요.');

  // Step 2: 1원 arrives; the customer reads the depositor name in the (sandbox) bank app.
  await page.getByRole('button', { name: '1원 보내기' }).click();
  const input = page.getByLabel('인증 코드 4자리');
  await expect(input).toBeVisible();
  const inbox = await request.get('/api/payment/autopay/sandbox-deposits', {
    headers: { authorization: `Bearer ${token}` },
  });
  const [deposit] = (await inbox.json()).data as Array<{ depositorName: string; amount: number }>;
  expect(deposit?.amount).toBe(1);
  expect(deposit?.depositorName).toMatch(/^오굿[0-9]{4}$/);
  const code = deposit?.depositorName.slice(2) ?? '';

  // A wrong code first: how many tries are left, in Korean.
  await input.fill(String((Number(code) + 1) % 10_000).padStart(4, '0'));
  await page.getByRole('button', { name: '인증하기' }).click();
  await expect(page.getByRole('alert')).toHaveText('인증 코드가 맞지 않아요. 4번 더 입력할 수 있어요.');
  await expect(page.getByText(/남은 입력 4번/)).toBeVisible();
  await page.screenshot({ path: join(shots, 'autopay-code-wrong.png') });

  await input.fill(code);
  await page.getByRole('button', { name: '인증하기' }).click();
  await expect(page.getByRole('heading', { name: '자동 납부가 켜져 있어요' })).toBeVisible();
  await expect.poll(() => alerts).toContain('계좌 인증을 마쳤어요. 이제 납부일에 자동으로 출금해요.');
  await page.screenshot({ path: join(shots, 'autopay-on.png') });

  // /payment and /mypage agree: on, nothing pending.
  await page.getByRole('link', { name: '납부하기로 돌아가기' }).click();
  await expect(page.getByRole('switch', { name: /자동 납부/ })).toBeChecked();
  await expect(page.getByTestId('autopay-card')).toContainText('납부일에 토스');
  await expect(page.getByTestId('autopay-card').getByRole('status')).toHaveCount(0);
  await page.goto('/mypage');
  await expect(page.getByTestId('autopay-card')).toContainText('납부일에 토스');
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});

test('an early payment while autopay is debiting the same lines is refused in Korean', async ({ page, request }) => {
  const alerts = recordAlerts(page);
  const email = uniqueEmail('held');
  const token = await apiCustomer(request, email, ownAccount());
  await apiPay(request, token, '자동납부중', 12_000);
  // The autopay claim, as it stands while the bank is being asked: the lines are held by its attempt.
  execFileSync('npx', ['tsx', 'src/test/e2e-hold-autopay.ts', email], {
    cwd: join(import.meta.dirname, '../../server'),
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });

  await openAsCustomer(page, token);
  await page.goto('/payment');
  await settled(page);
  await page.getByLabel('자동납부중 12,000원 선택').check();
  await page.getByRole('button', { name: '즉시 납부' }).click();
  await page.getByRole('dialog', { name: '즉시 납부' }).getByRole('button', { name: '12,000원 납부하기' }).click();
  await expect.poll(() => alerts).toContainEqual(expect.stringContaining('자동 납부로 출금하고 있는 내역이에요'));
  await page.screenshot({ path: join(shots, 'autopay-in-progress.png') });
  // Nothing was paid: the line is still there to pay once autopay has answered.
  await expect(page.getByLabel('자동납부중 12,000원 선택')).toBeVisible();
  expect(alerts.filter((a) => a.startsWith('native'))).toEqual([]);
});
