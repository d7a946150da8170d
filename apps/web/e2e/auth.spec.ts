import { expect } from '@playwright/test';
import { test } from './fixtures';
import { recordAlerts, uniqueEmail } from './helpers';

test('register → login → header shows logout → logout', async ({ page }) => {
  const alerts = recordAlerts(page);
  const email = uniqueEmail('reg');
  await page.goto('/register');
  await expect(page.getByTestId('footer')).toHaveCount(0);
  await page.getByLabel('이름').fill('김테스트');
  await page.getByLabel('이메일').fill(email);
  await page.getByLabel('비밀번호').fill('goodpass1!');
  await page.getByLabel('생년월일').fill('1994-07-21');
  await page.getByLabel('은행').selectOption('신한');
  await page.getByLabel('계좌번호').fill('110123456789');
  await page.getByRole('button', { name: '회원가입' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => alerts).toContain('회원가입 성공');

  await expect(page.getByTestId('login-link')).toBeVisible();
  // The URL changes before the lazily loaded login page replaces the register form (a transition).
  await expect(page.getByRole('heading', { level: 1, name: '로그인' })).toBeVisible();
  await page.getByLabel('이메일').fill(email);
  await page.getByLabel('비밀번호').fill('goodpass1!');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => alerts).toContain('로그인 성공!');
  await expect(page.getByRole('button', { name: '로그아웃' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('accessToken'))).toMatch(/^ey/);

  await page.getByRole('button', { name: '로그아웃' }).click();
  await expect(page.getByRole('link', { name: '로그인' })).toBeVisible();
  await expect.poll(() => alerts).toContain('로그아웃 되었습니다.');
  expect(await page.evaluate(() => sessionStorage.getItem('accessToken'))).toBeNull();
});

test('a wrong password shows the login failure text and stays logged out', async ({ page }) => {
  const alerts = recordAlerts(page);
  await page.goto('/login');
  await page.getByLabel('이메일').fill('demo@ohgood.kr');
  await page.getByLabel('비밀번호').fill('wrongpass1');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('로그인에 실패했습니다.');
  // Said once, beside the form: no toast repeats it.
  expect(alerts).toEqual([]);
  await expect(page.getByTestId('login-link')).toBeVisible();
});

test('register validation: red borders and the blocking message at the form', async ({ page }) => {
  const alerts = recordAlerts(page);
  await page.goto('/register');
  const email = page.getByLabel('이메일');
  await email.fill('not-an-email');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveCSS('border-top-color', 'rgb(217, 54, 54)');
  const pwd = page.getByLabel('비밀번호');
  await pwd.fill('bad pass$');
  await expect(pwd).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: '회원가입' }).click();
  // Said beside the form (a toast would cover the fields it is about), with the first wrong field focused.
  await expect(page.getByRole('alert')).toHaveText('올바른 값을 입력해주세요.');
  await expect(page.getByLabel('이름')).toBeFocused();
  expect(alerts).toEqual([]);
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByLabel('이름')).toHaveAttribute('aria-invalid', 'true');

  await email.fill('fixed@example.com');
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');
  await pwd.fill('fine123!');
  await expect(pwd).not.toHaveAttribute('aria-invalid', 'true');
});

test('a guarded page alerts and redirects to /login', async ({ page }) => {
  const alerts = recordAlerts(page);
  await page.goto('/mypage');
  await expect(page).toHaveURL(/\/login\?next=%2Fmypage$/);
  await expect.poll(() => alerts).toEqual(['로그인 후 이용 가능합니다.']);
});

test('the demo customer can log in', async ({ page }) => {
  recordAlerts(page);
  await page.goto('/login');
  await page.getByLabel('이메일').fill('demo@ohgood.kr');
  await page.getByLabel('비밀번호').fill('ohgood123!');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page.getByRole('button', { name: '로그아웃' })).toBeVisible();
});
