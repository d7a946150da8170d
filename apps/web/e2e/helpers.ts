import { type APIRequestContext, expect, type Page } from '@playwright/test';

let counter = 0;

/**
 * In the page: reports each new toast element's text to the test once. A toast can appear before the
 * test's binding is installed (a fast first render): it waits in `__e2ePending` until the binding exists.
 */
function watchToasts() {
  const w = window as unknown as { __e2eToast?(text: string): void; __e2eWatching?: boolean; __e2ePending?: string[] };
  if (w.__e2eWatching) return;
  w.__e2eWatching = true;
  w.__e2ePending = [];
  const seen = new WeakSet<Element>();
  const report = () => {
    for (const el of document.querySelectorAll('[data-testid="toast"]')) {
      if (seen.has(el)) continue;
      seen.add(el);
      const text = el.textContent ?? '';
      if (w.__e2eToast) w.__e2eToast(text);
      else w.__e2ePending?.push(text);
    }
  };
  new MutationObserver(report).observe(document, { childList: true, subtree: true });
  report();
}

/** In the page, once the binding exists: reports the toasts seen before it did. */
function flushPendingToasts() {
  const w = window as unknown as { __e2eToast?(text: string): void; __e2ePending?: string[] };
  const pending = w.__e2ePending ?? [];
  w.__e2ePending = [];
  for (const text of pending) w.__e2eToast?.(text);
}

/**
 * Collects the text of every toast the app shows (the app's alerts), in order. A native
 * alert()/confirm() is a bug now: it is dismissed and recorded as 'native: <text>', so assertions fail.
 */
export function recordAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', async (dialog) => {
    alerts.push(`native: ${dialog.message()}`);
    await dialog.dismiss();
  });
  // Not awaited, so callers stay synchronous; a test that ends before its page loads must not fail on it.
  const ignoreClosed = () => undefined;
  page
    .exposeFunction('__e2eToast', (text: string) => alerts.push(text))
    .then(() => page.evaluate(flushPendingToasts))
    .catch(ignoreClosed);
  // Installed by an init script and again on every load, in case the first navigation began before the
  // init script was registered; a flag keeps it to one observer per document.
  page.addInitScript(watchToasts).catch(ignoreClosed);
  page.on('domcontentloaded', () => void page.evaluate(watchToasts).catch(ignoreClosed));
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

export const MERCHANT = { 'x-merchant-key': 'demo-merchant-key' };

/** A shop's payment request through the merchant API. */
export async function merchantRequest(request: APIRequestContext, requestName: string, totalPrice: number) {
  const res = await request.post('/api/merchant/payment-requests', {
    headers: MERCHANT,
    data: { orderId: `e2e-${Date.now()}-${Math.random()}`, requestName, totalPrice },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()) as { requestId: string; pinCode: string; qrCode: string };
}

/** Opens /qrpin, switches to the PIN tab and types the code on the pad. */
export async function enterPin(page: Page, pin: string) {
  await page.goto('/qrpin');
  await page.getByRole('tab', { name: 'PIN 입력' }).click();
  const pad = page.getByRole('group', { name: 'PIN 입력' });
  for (const digit of pin) await pad.getByRole('button', { name: digit, exact: true }).click();
}

/** After paying: the receipt, then '확인' to the history. */
export async function confirmReceipt(page: Page) {
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toBeVisible();
  await receipt.getByRole('button', { name: '확인' }).click();
  await expect(page).toHaveURL(/\/payment\/details$/);
}

/** A new customer made through the API only (fast): returns the access token. */
export async function apiCustomer(
  request: APIRequestContext,
  emailId = uniqueEmail('api'),
  account = '1002345678901',
): Promise<string> {
  const pwd = 'password1!';
  const reg = await request.post('/api/public/register', {
    data: { name: '김오굿', emailId, pwd, birth: '1990-01-01', account, accountName: '토스' },
  });
  expect(reg.ok()).toBe(true);
  const res = await request.post('/auth', { data: { emailId, pwd } });
  expect(res.ok()).toBe(true);
  const body = await res.json();
  return (body.accessToken ?? body.data?.accessToken) as string;
}

/**
 * A purchase through the API (another device): the shop's request, then the customer validates and pays it,
 * using `point` points. Returns the payment's `result` (`POST /api/payment/final`, docs/rules/api.md).
 */
export async function apiPay(
  request: APIRequestContext,
  token: string,
  requestName: string,
  totalPrice: number,
  point = 0,
): Promise<{ paymentId: number; balance: number; pointBalance: number }> {
  const r = await merchantRequest(request, requestName, totalPrice);
  const headers = { authorization: `Bearer ${token}` };
  const valid = await request.post('/api/payment/validate', {
    headers,
    data: { codeType: 'pincode', value: r.pinCode },
  });
  expect(valid.ok()).toBe(true);
  const paid = await request.post(`/api/payment/final?point=${point}&requestId=${r.requestId}`, { headers });
  expect(paid.ok()).toBe(true);
  return (await paid.json()).result;
}

/** A shop's request (its key in `merchant`) paid by a new customer through the API; returns the request's id. */
export async function paidRequest(
  request: APIRequestContext,
  merchant: Record<string, string>,
  data: { orderId: string; requestName: string; totalPrice: number },
): Promise<string> {
  const token = await apiCustomer(request);
  const created = await request.post('/api/merchant/payment-requests', { headers: merchant, data });
  expect(created.ok()).toBe(true);
  const { requestId, pinCode } = await created.json();
  const headers = { authorization: `Bearer ${token}` };
  expect(
    (await request.post('/api/payment/validate', { headers, data: { codeType: 'pincode', value: pinCode } })).ok(),
  ).toBe(true);
  expect((await request.post(`/api/payment/final?point=0&requestId=${requestId}`, { headers })).ok()).toBe(true);
  return requestId as string;
}

/** Opens pages of this test as the given customer (session storage is per tab, so set before load). */
export async function openAsCustomer(page: Page, token: string): Promise<void> {
  await page.addInitScript((t) => sessionStorage.setItem('accessToken', t), token);
}

/** Waits until the route's chunk and its data have loaded: no '…불러오는 중' text left. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('#root')?.childElementCount ?? 0) > 0, undefined, {
    timeout: 15_000,
  });
  await expect(page.getByText(/불러오는 중/)).toHaveCount(0);
}

/** Logs in as the seeded demo customer (README) through the UI. */
export async function logInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('이메일').fill('demo@ohgood.kr');
  await page.getByLabel('비밀번호').fill('ohgood123!');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * Holds the page's requests to `url` until the returned function is called, so a test looks at the screen
 * before they answer: the states are compared in turn, not raced.
 */
export async function holdRequests(page: Page, url: Parameters<Page['route']>[0]): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
