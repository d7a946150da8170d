import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { paidRequest } from './helpers';
import { OPERATORS, signInOnScreen, staffSession } from './staff-session';

/*
 * A risk operator on the console's merchants screen, on a phone (390×844; docs/rules/settlement.md#M6, #M8,
 * webhooks.md#W10): a new shop with two webhook endpoints — one that answers 200, one that answers 500 — is
 * paid once; RISK finds the shop, holds its payouts with a reason, sees the hold, releases it, and reads the
 * shop's webhook health: the delivered endpoint and the failing one, and none of the admin's actions.
 */

const shots = join(import.meta.dirname, '.tmp', 'ops');
const servers: Server[] = [];

/** A webhook endpoint inside this test answering `status`; `arrived` settles when the first call came. */
async function endpoint(status: number) {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      res.end('ok');
      arrive();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/secret-path`, arrived };
}

test.beforeAll(() => mkdirSync(shots, { recursive: true }));
test.afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

test('risk holds a shop’s payouts with a reason, releases them, and reads its webhook health', async ({
  page,
  request,
}) => {
  // The shop: made by an admin, with two endpoints, paid once.
  const admin = { authorization: `Bearer ${await staffSession(request, OPERATORS.ADMIN)}` };
  const name = `리스크점검상점${Date.now() % 100_000}`;
  const made = await request.post('/api/ops/merchants', {
    headers: admin,
    data: { name, category: '식비', reason: '리스크 화면 점검용 가맹점' },
  });
  expect(made.ok()).toBe(true);
  const { apiKey } = await made.json();
  const good = await endpoint(200);
  const broken = await endpoint(500);
  for (const hook of [good, broken]) {
    const res = await request.post('/api/merchant/webhooks', {
      headers: { 'x-merchant-key': apiKey },
      data: { url: hook.url, events: ['payment.paid'] },
    });
    expect(res.status()).toBe(201);
  }
  await paidRequest(
    request,
    { 'x-merchant-key': apiKey },
    {
      orderId: `risk-${Date.now()}`,
      requestName: '점검용 주문',
      totalPrice: 12_000,
    },
  );
  await Promise.all([good.arrived, broken.arrived]);

  // RISK signs in on the screen and finds the shop.
  await signInOnScreen(page, OPERATORS.RISK);
  await page.getByRole('navigation', { name: '운영 메뉴' }).getByRole('button', { name: '가맹점' }).click();
  await expect(page.getByRole('button', { name: '가맹점 등록' })).toHaveCount(0);
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: '상세' })
    .click();
  const settlement = page.getByRole('region', { name: '정산' });
  await expect(settlement).toContainText('2.50% · D+1 영업일');
  await expect(settlement.getByRole('button', { name: '수수료 · 주기 변경' })).toHaveCount(0);
  await expect(settlement.getByRole('button', { name: '정산 계좌 등록' })).toHaveCount(0);

  // Hold, with a reason.
  await settlement.getByRole('button', { name: '지급 보류' }).click();
  const holdDialog = page.getByRole('dialog', { name: '지급 보류' });
  await holdDialog.getByLabel(/사유/).fill('부정 거래 의심 — 점검');
  await holdDialog.getByRole('button', { name: '다음' }).click();
  await holdDialog.getByRole('button', { name: '실행' }).click();
  await expect(settlement).toContainText('부정 거래 의심 — 점검');
  await expect(settlement.getByRole('button', { name: '보류 해제' })).toBeVisible();

  // The webhook health: the delivered endpoint and the failing one, addresses masked.
  const health = page.getByRole('region', { name: '웹훅 상태' });
  const delivered = health.getByRole('article', { name: `웹훅 ${new URL(good.url).origin}/…` });
  const failing = health.getByRole('article', { name: `웹훅 ${new URL(broken.url).origin}/…` });
  await expect(delivered).toContainText('성공 · HTTP 200');
  await expect(delivered).toContainText('100% (1/1)');
  await expect(failing).toContainText('재시도 대기 · HTTP 500');
  await expect(failing).toContainText('실패 후 재시도 1건');
  await expect(failing).toContainText('실패 있음');
  await expect(health).not.toContainText('secret-path');
  await settlement.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'merchant-risk-390.png'), fullPage: true });
  await health.screenshot({ path: join(shots, 'merchant-webhooks-390.png') });

  // Release, with a reason.
  await settlement.getByRole('button', { name: '보류 해제' }).click();
  const releaseDialog = page.getByRole('dialog', { name: '보류 해제' });
  await releaseDialog.getByLabel(/사유/).fill('확인 결과 정상 거래');
  await releaseDialog.getByRole('button', { name: '다음' }).click();
  await releaseDialog.getByRole('button', { name: '실행' }).click();
  await expect(settlement.getByRole('button', { name: '지급 보류' })).toBeVisible();
  await expect(settlement).not.toContainText('부정 거래 의심 — 점검');
});
