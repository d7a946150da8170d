import { expect } from '@playwright/test';
import { test } from './fixtures';
import { confirmReceipt, enterPin, merchantRequest, recordAlerts, signUpAndLogIn, uniqueEmail } from './helpers';

test('a load error shows the failure text once and 다시 시도 loads the page', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('retry'));
  let offline = true;
  await page.route('**/api/payment/history**', (route) => (offline ? route.abort() : route.continue()));
  await page.goto('/payment/details');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('오류가 발생했습니다: 네트워크 연결을 확인해주세요.');
  // Said once: the text does not repeat '오류가 발생했습니다' or '다시 시도해주세요'.
  const text = (await alert.textContent()) ?? '';
  expect(text.split('오류가 발생했습니다').length - 1).toBe(1);
  expect(text).not.toContain('다시 시도해주세요');
  offline = false;
  await alert.getByRole('button', { name: '다시 시도' }).click();
  await expect(page.getByText('결제 내역이 없습니다.')).toBeVisible();
});

test('without a camera the QR tab points to the PIN tab', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('nocam'));
  await page.goto('/qrpin');
  await expect(page.getByRole('alert')).toContainText('카메라 권한을 확인해 주세요.');
  await page.getByRole('button', { name: 'PIN으로 결제하기' }).click();
  await expect(page.getByRole('tab', { name: 'PIN 입력' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('group', { name: 'PIN 입력' })).toBeVisible();
});

test('QR/PIN tabs follow the ARIA tab pattern with arrow keys', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('tabs'));
  await page.goto('/qrpin');
  const qr = page.getByRole('tab', { name: 'QR 스캔' });
  const pin = page.getByRole('tab', { name: 'PIN 입력' });
  await expect(qr).toHaveAttribute('tabindex', '0');
  await expect(pin).toHaveAttribute('tabindex', '-1');
  await qr.focus();
  await page.keyboard.press('ArrowRight');
  await expect(pin).toBeFocused();
  await expect(pin).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel');
  await expect(panel).toHaveAttribute('aria-labelledby', (await pin.getAttribute('id')) ?? '');
  await expect(panel.getByRole('group', { name: 'PIN 입력' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(qr).toBeFocused();
  await expect(qr).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(pin).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(qr).toHaveAttribute('aria-selected', 'true');
});

test('a modal gives focus back to what opened it; inputs show a focus ring', async ({ page, request }) => {
  recordAlerts(page);
  // A browser with Web Push (a full Chromium) is offered alerts after the first payment; this test is about
  // the payment detail's focus, so the offer counts as made (push-opt-in.spec.ts tests it).
  await page.addInitScript(() => localStorage.setItem('ohgood.push-asked', '1'));
  await signUpAndLogIn(page, uniqueEmail('focus'));
  const r = await merchantRequest(request, '포커스 상품', 3_000);
  await enterPin(page, r.pinCode);
  await page.getByRole('dialog', { name: '결제하기' }).getByRole('button', { name: '3,000원 결제하기' }).click();
  await confirmReceipt(page);

  const row = page.getByRole('button', { name: /포커스 상품/ });
  await row.click();
  const detail = page.getByRole('dialog', { name: '결제 상세' });
  await expect(detail).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect(row).toBeFocused();

  const search = page.getByLabel('결제 내역 검색');
  await search.click();
  await expect(search).toHaveCSS('outline-style', 'solid');
  await expect(search).toHaveCSS('outline-width', '3px');
  await page.goto('/login');
  const email = page.getByLabel('이메일');
  await email.click();
  await expect(email).toHaveCSS('outline-style', 'solid');
});

/** WCAG contrast of two CSS `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r = 0, g = 0, b = 0] = (css.match(/\d+(\.\d+)?/g) ?? []).map((v) => Number(v) / 255);
    const lin = (v: number) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

test('QR/PIN tab labels keep 4.5:1 contrast whichever tab is selected', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('tab-contrast'));
  await page.goto('/qrpin');
  const pin = page.getByRole('tab', { name: 'PIN 입력' });
  await expect(pin).toBeVisible();
  for (const select of [null, pin]) {
    if (select) await select.click();
    if (select) await expect(select).toHaveAttribute('aria-selected', 'true');
    // A tab's text sits on its own fill when it has one (the selected tab), else on the tab list's track.
    const pairs = await page.getByRole('tab').evaluateAll((tabs) =>
      tabs.map((tab) => {
        const own = getComputedStyle(tab).backgroundColor;
        const track = getComputedStyle(tab.parentElement as Element).backgroundColor;
        return { text: getComputedStyle(tab).color, ground: own === 'rgba(0, 0, 0, 0)' ? track : own };
      }),
    );
    expect(pairs).toHaveLength(2);
    for (const { text, ground } of pairs) expect(contrast(text, ground)).toBeGreaterThanOrEqual(4.5);
  }
});
