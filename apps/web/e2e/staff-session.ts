import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';

/** A seeded operator (README's demo accounts). */
export interface Operator {
  email: string;
  password: string;
  secret: string;
}

const PASSWORD = 'ohgood-ops-123!';
export const OPERATORS = {
  RISK: { email: 'risk@ops.ohgood.kr', password: PASSWORD, secret: 'XLYB565EMYZ3HONA3KRDCKY5QGLFVHQ6' },
  MODERATOR: { email: 'moderator@ops.ohgood.kr', password: PASSWORD, secret: 'NPGH446TF7SD64GYCIX4SKQYFGK3DGQM' },
  ADMIN: { email: 'admin@ops.ohgood.kr', password: PASSWORD, secret: 'QPGIMB3LVH3TATUS5RBTLBV26KZUM6WB' },
} satisfies Record<string, Operator>;
export const RISK = OPERATORS.RISK;

/** The authenticator's 30-second step, on real time (the server checks TOTP against it, whatever its clock). */
const step = () => Math.floor(Date.now() / 30_000);

/**
 * Passes the TOTP step with `tryCode`. A code counts once and the specs sign in one after another, so the
 * specs before this one may have spent this step's code and the next one's (the one step of drift the server
 * allows): it tries both, then waits for the authenticator's next step and tries again.
 */
export async function withTotp(secret: string, tryCode: (code: string) => Promise<boolean>): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const now = step();
    for (const ahead of [0, 1]) if (await tryCode(await generate({ secret, epoch: (now + ahead) * 30 }))) return;
    // Waiting for the next step is the authenticator's pace, not the test's: the test gets that time too.
    test.info().setTimeout(test.info().timeout + 35_000);
    await expect.poll(step, { timeout: 35_000 }).toBeGreaterThan(now);
  }
  throw new Error('could not pass the TOTP step');
}

/** An operator's console session through the API: password, then the code; returns the token. */
export async function staffSession(request: APIRequestContext, who: Operator): Promise<string> {
  const first = await request.post('/api/ops/auth/sign-in', { data: { email: who.email, password: who.password } });
  expect(first.ok()).toBe(true);
  const token = (await first.json()).token as string;
  await withTotp(who.secret, async (code) => {
    const second = await request.post('/api/ops/auth/totp', {
      headers: { authorization: `Bearer ${token}` },
      data: { code },
    });
    return second.ok();
  });
  return token;
}

export const riskSession = (request: APIRequestContext) => staffSession(request, RISK);

/**
 * Signs in on the console's own screen: email and password, then the authenticator's code. A refused code ends
 * the pending sign-in, so each try starts again from the email.
 */
export async function signInOnScreen(page: Page, who: Operator): Promise<void> {
  const menu = page.getByRole('navigation', { name: '운영 메뉴' });
  await withTotp(who.secret, async (code) => {
    await page.goto('/ops');
    await page.getByLabel('이메일').fill(who.email);
    await page.getByLabel('비밀번호').fill(who.password);
    await page.getByRole('button', { name: '다음' }).click();
    await page.getByLabel('인증 앱의 6자리 코드').fill(code);
    await page.getByRole('button', { name: '로그인' }).click();
    await expect(menu.or(page.getByRole('alert'))).toBeVisible();
    return menu.isVisible();
  });
}

/** Opens the console at /ops already signed in with `token` (the console keeps it per tab). */
export async function openConsole(page: Page, token: string): Promise<void> {
  await page.addInitScript((t) => sessionStorage.setItem('opsToken', t), token);
  await page.goto('/ops');
  await expect(page.getByRole('navigation', { name: '운영 메뉴' })).toBeVisible();
}
