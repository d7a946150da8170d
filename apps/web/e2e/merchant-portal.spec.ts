import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { apiCustomer, MERCHANT, settled } from './helpers';

/*
 * The merchant portal end to end: an ADMIN adds a merchant user to the demo shop on the console's screen, the
 * user enrols on the one-time link (scanning the secret the page shows), signs in with a TOTP code the test
 * computes, finds a paid payment by its order id and refunds it with a reason (desktop, 1440×900); the seeded
 * demo merchant user signs in on a phone (390×844) and issues an API key that the public merchant API takes.
 */

const shots = join(import.meta.dirname, '.tmp', 'merchant-portal');
const ADMIN = { email: 'admin@ops.ohgood.kr', password: 'ohgood-ops-123!', secret: 'QPGIMB3LVH3TATUS5RBTLBV26KZUM6WB' };
const DEMO_USER = {
  email: 'shop@merchant.ohgood.kr',
  password: 'ohgood-shop-123!',
  secret: 'JBSWY3DPEHPK3PXPMERCHANTDEMO2345',
};

/**
 * The code a real authenticator shows `stepsAhead` steps from now (the server checks real time and takes a
 * code of the next step too): a code already used for enrolment is never accepted twice, so the sign-in after
 * it takes the next step's.
 */
const codeFor = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** A paid payment of the demo shop with a known order id: the shop's request, a customer pays it. */
async function paidOrder(request: APIRequestContext, orderId: string, totalPrice: number) {
  const token = await apiCustomer(request);
  const created = await request.post('/api/merchant/payment-requests', {
    headers: MERCHANT,
    data: { orderId, requestName: '카페라떼 2잔', totalPrice },
  });
  expect(created.ok()).toBe(true);
  const { requestId, pinCode } = await created.json();
  const headers = { authorization: `Bearer ${token}` };
  expect(
    (await request.post('/api/payment/validate', { headers, data: { codeType: 'pincode', value: pinCode } })).ok(),
  ).toBe(true);
  expect((await request.post(`/api/payment/final?point=0&requestId=${requestId}`, { headers })).ok()).toBe(true);
  return requestId as string;
}

async function signInOnScreen(page: Page, email: string, password: string, code: string) {
  await page.goto('/merchant/portal');
  await expect(page.getByRole('heading', { name: '오굿페이 가맹점 포털' })).toBeVisible();
  await page.screenshot({ path: join(shots, `sign-in-${page.viewportSize()?.width}.png`) });
  await page.getByLabel('이메일').fill(email);
  await page.getByLabel('비밀번호').fill(password);
  await page.getByRole('button', { name: '다음' }).click();
  await page.getByLabel('인증 앱의 6자리 코드').fill(code);
  await page.getByRole('button', { name: '로그인' }).click();
  await expect(page.getByRole('navigation', { name: '가맹점 메뉴' })).toBeVisible();
}

test.beforeAll(() => mkdirSync(shots, { recursive: true }));

test.describe('desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

  test('an ADMIN adds a merchant user in the console, who enrols, signs in with TOTP and refunds a paid payment', async ({
    page,
    request,
  }) => {
    // The ADMIN adds the user on the console's screen: the merchant's detail, a reason, a confirmation.
    await page.goto('/ops');
    await page.getByLabel('이메일').fill(ADMIN.email);
    await page.getByLabel('비밀번호').fill(ADMIN.password);
    await page.getByRole('button', { name: '다음' }).click();
    await page.getByLabel('인증 앱의 6자리 코드').fill(await codeFor(ADMIN.secret));
    await page.getByRole('button', { name: '로그인' }).click();
    await page.getByRole('navigation', { name: '운영 메뉴' }).getByRole('button', { name: '가맹점' }).click();
    await page
      .getByRole('row', { name: /스타벅스 강남점/ })
      .getByRole('button', { name: '상세' })
      .click();
    await page.getByRole('button', { name: '사용자 추가' }).click();
    const email = `owner-${Date.now()}@shop.example.com`;
    const addUser = page.getByRole('dialog');
    await addUser.getByLabel('이메일').fill(email);
    await addUser.getByLabel('이름').fill('김점장');
    await addUser.getByLabel(/사유/).fill('e2e 가맹점 사용자');
    await addUser.getByRole('button', { name: '다음' }).click();
    await addUser.getByRole('button', { name: '실행' }).click();
    const link = page.getByLabel('등록 링크').getByText(/\/merchant\/portal\/enrol\//);
    const enrolmentUrl = ((await link.textContent()) ?? '').trim();
    expect(enrolmentUrl).toMatch(/\/merchant\/portal\/enrol\/[A-Za-z0-9_-]+$/);
    await page.screenshot({ path: join(shots, 'console-add-user.png') });

    // The one-time link: the QR's secret as text, a password and the authenticator's code.
    await page.goto(enrolmentUrl);
    await expect(page.getByRole('heading', { name: '가맹점 사용자 등록' })).toBeVisible();
    await expect(page.getByText('스타벅스 강남점 · 김점장')).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).not.toBe('');
    await page.screenshot({ path: join(shots, 'enrol-desktop.png') });
    await page.getByLabel('새 비밀번호 (12자 이상)').fill('owner-password-123');
    await page.getByLabel('인증 앱의 6자리 코드').fill(await codeFor(secret));
    await page.getByRole('button', { name: '등록하기' }).click();
    await expect(page.getByRole('heading', { name: '등록이 끝났어요' })).toBeVisible();

    const orderId = `E2E-${Date.now()}`;
    await paidOrder(request, orderId, 9_800);
    await signInOnScreen(page, email, 'owner-password-123', await codeFor(secret, 1));
    await expect(page.getByRole('heading', { name: '결제 내역' })).toBeVisible();
    await page.getByLabel('주문번호').fill(orderId);
    await page.getByRole('button', { name: '조회' }).click();
    const table = page.getByRole('table');
    await expect(table.getByText(orderId)).toBeVisible();
    await expect(table.getByText('결제 완료')).toBeVisible();
    await expect(table.getByText('9,800원')).toBeVisible();
    await settled(page);
    await page.screenshot({ path: join(shots, 'payments-desktop.png') });

    await page.getByRole('button', { name: `${orderId} 환불` }).click();
    const dialog = page.getByRole('dialog', { name: '결제 환불' });
    await dialog.getByLabel('환불 사유').fill('고객 요청으로 주문 취소');
    await page.screenshot({ path: join(shots, 'refund-desktop.png') });
    await dialog.getByRole('button', { name: '환불하기' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('9,800원을 환불했어요.')).toBeVisible();
    await expect(table.getByText('환불', { exact: true })).toBeVisible();
    // The public merchant API sees the same refund.
    const paymentsByKey = await request.get(`/api/merchant/payments?orderId=${orderId}`, { headers: MERCHANT });
    expect((await paymentsByKey.json()).items).toEqual([expect.objectContaining({ orderId, status: 'REFUNDED' })]);
  });
});

test.describe('phone', () => {
  test('the demo merchant user signs in on a phone and issues an API key the merchant API takes', async ({
    page,
    request,
  }) => {
    await paidOrder(request, `E2E-PHONE-${Date.now()}`, 4_500);
    await signInOnScreen(page, DEMO_USER.email, DEMO_USER.password, await codeFor(DEMO_USER.secret));
    await expect(page.getByRole('table').getByText('4,500원').first()).toBeVisible();
    await settled(page);
    await page.screenshot({ path: join(shots, 'payments-phone.png'), fullPage: true });

    await page.getByRole('navigation', { name: '가맹점 메뉴' }).getByRole('link', { name: 'API 키' }).click();
    await expect(page.getByRole('heading', { name: 'API 키' })).toBeVisible();
    await page.getByRole('button', { name: '새 키 발급' }).click();
    const apiKey = (await page.getByTestId('new-api-key').textContent())?.trim() ?? '';
    expect(apiKey).toMatch(/^ogm_/);
    await page.screenshot({ path: join(shots, 'keys-phone.png'), fullPage: true });
    const withNewKey = await request.post('/api/merchant/payment-requests', {
      headers: { 'x-merchant-key': apiKey },
      data: { orderId: `E2E-KEY-${Date.now()}`, requestName: '새 키 확인', totalPrice: 1000 },
    });
    expect(withNewKey.ok()).toBe(true);
    await page.getByRole('button', { name: '보관했어요' }).click();
    await expect(page.getByTestId('new-api-key')).toHaveCount(0);

    await page.getByRole('link', { name: /정산/ }).click();
    await expect(page.getByRole('heading', { name: '정산' })).toBeVisible();
  });
});
