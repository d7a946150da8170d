import { expect, type Page } from '@playwright/test';

let counter = 0;

/** Collects every window.alert text and accepts the dialog, so tests can assert on the spec's alerts. */
export function recordAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', async (dialog) => {
    alerts.push(dialog.message());
    await dialog.accept();
  });
  return alerts;
}

export function uniqueEmail(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@example.com`;
}

/** Signs up through the API (fast) and logs in through the UI. */
export async function signUpAndLogIn(page: Page, emailId = uniqueEmail(), pwd = 'password1!'): Promise<string> {
  const res = await page.request.post('/api/public/register', {
    data: { name: '이투이', emailId, pwd, birth: '1990-01-01', account: '12345678901', accountName: '카카오' },
  });
  expect(res.ok()).toBe(true);
  await page.goto('/login');
  await page.getByLabel('이메일').fill(emailId);
  await page.getByLabel('비밀번호').fill(pwd);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  return emailId;
}

/** Logs in as the seeded demo customer (README) through the UI. */
export async function logInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('이메일').fill('demo@ohgood.kr');
  await page.getByLabel('비밀번호').fill('ohgood123!');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}
