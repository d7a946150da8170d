import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';

/** The seeded risk operator (README's demo accounts). */
export const RISK = {
  email: 'risk@ops.ohgood.kr',
  password: 'ohgood-ops-123!',
  secret: 'XLYB565EMYZ3HONA3KRDCKY5QGLFVHQ6',
};

/**
 * Risk's console session through the API. A TOTP code counts once and the specs run one after another, so
 * specs before this one may have spent this 30-second step's code and the next one's (the one step of drift
 * the server allows): then it waits for the authenticator's next step and tries again.
 */
export async function riskSession(request: APIRequestContext): Promise<string> {
  const first = await request.post('/api/ops/auth/sign-in', { data: { email: RISK.email, password: RISK.password } });
  expect(first.ok()).toBe(true);
  const token = (await first.json()).token as string;
  const step = () => Math.floor(Date.now() / 30_000);
  for (let round = 0; round < 3; round++) {
    const now = step();
    for (const ahead of [0, 1]) {
      const second = await request.post('/api/ops/auth/totp', {
        headers: { authorization: `Bearer ${token}` },
        data: { code: await generate({ secret: RISK.secret, epoch: (now + ahead) * 30 }) },
      });
      if (second.ok()) return token;
    }
    await expect.poll(step, { timeout: 35_000 }).toBeGreaterThan(now);
  }
  throw new Error('risk could not pass the TOTP step');
}

/** Opens the console at /ops already signed in with `token` (the console keeps it per tab). */
export async function openConsole(page: Page, token: string): Promise<void> {
  await page.addInitScript((t) => sessionStorage.setItem('opsToken', t), token);
  await page.goto('/ops');
  await expect(page.getByRole('navigation', { name: '운영 메뉴' })).toBeVisible();
}
