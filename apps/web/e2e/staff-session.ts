import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { test } from './fixtures';

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

/** The step each secret's code last passed at in this worker: a code of that step or before it is spent. */
const takenSteps = new Map<string, number>();

/**
 * Passes the TOTP step with `tryCode`. A code counts once and the specs sign in one after another, so the
 * specs before this one may have spent this step's code and the next one's (the one step of drift the server
 * allows). A spent code counts as a wrong one toward the account's lockout (5 in 10 minutes), so codes this
 * worker spent are never sent; the rest are tried, then the authenticator's next step is waited for.
 */
export async function withTotp(secret: string, tryCode: (code: string) => Promise<boolean>): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const now = step();
    const spent = takenSteps.get(secret) ?? Number.NEGATIVE_INFINITY;
    for (const at of [now, now + 1]) {
      if (at <= spent) continue;
      if (await tryCode(await generate({ secret, epoch: at * 30 }))) {
        takenSteps.set(secret, at);
        return;
      }
    }
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

/** A code the authenticator shows at none of the steps the server accepts now (wrong on purpose). */
async function wrongCode(secret: string): Promise<string> {
  const now = step();
  const near = await Promise.all([-1, 0, 1].map((ahead) => generate({ secret, epoch: (now + ahead) * 30 })));
  return ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code)) as string;
}

/**
 * Signs in on the console's own screen: email and password, then the authenticator's code. A refused code
 * keeps the code step (the pending session stays open): the field is emptied and focused for the next one.
 * With `wrongCodeFirst`, a wrong code is typed first and the screen's answer to it checked.
 */
export async function signInOnScreen(
  page: Page,
  who: Operator,
  options: { wrongCodeFirst?: boolean } = {},
): Promise<void> {
  await page.goto('/ops');
  await page.getByLabel('이메일').fill(who.email);
  await page.getByLabel('비밀번호').fill(who.password);
  await page.getByRole('button', { name: '다음' }).click();
  const field = page.getByLabel('인증 앱의 6자리 코드');
  await expect(field).toBeFocused();
  const send = async (code: string) => {
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/ops/auth/totp'));
    await field.fill(code);
    await page.getByRole('button', { name: '로그인' }).click();
    if ((await answer).ok()) return true;
    await expect(field).toHaveValue('');
    await expect(field).toBeFocused();
    return false;
  };
  if (options.wrongCodeFirst) {
    expect(await send(await wrongCode(who.secret))).toBe(false);
    await expect(page.getByRole('alert')).toHaveText(
      '인증 코드가 올바르지 않습니다. 인증 앱의 새 코드를 입력해주세요.',
    );
    await expect(page.getByLabel('이메일')).toHaveCount(0);
  }
  await withTotp(who.secret, send);
  await expect(page.getByRole('navigation', { name: '운영 메뉴' })).toBeVisible();
}

/** Opens the console at /ops already signed in with `token` (the console keeps it per tab). */
export async function openConsole(page: Page, token: string): Promise<void> {
  await page.addInitScript((t) => sessionStorage.setItem('opsToken', t), token);
  await page.goto('/ops');
  await expect(page.getByRole('navigation', { name: '운영 메뉴' })).toBeVisible();
}
