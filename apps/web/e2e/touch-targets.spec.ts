import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, apiPay, openAsCustomer, recordAlerts, settled } from './helpers';
import { SCREENS } from './routes';

/** Interactive elements smaller than 44×44 CSS px (a checkbox counts by the label that wraps it). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="tab"], [role="button"], [tabindex="0"]';
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[hidden], [inert]')) continue;
      const target =
        el instanceof HTMLInputElement && ['checkbox', 'radio'].includes(el.type) ? (el.closest('label') ?? el) : el;
      const box = target.getBoundingClientRect();
      // Not laid out (visually hidden or in a closed panel): nothing to touch.
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.width < 43.5 || box.height < 43.5) {
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 20) ?? el.tagName;
        out.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return out;
  });
}

let token = '';

test.beforeAll(async ({ request }) => {
  token = await apiCustomer(request);
  // One purchase, so the bill, history and point screens have rows and checkboxes to measure.
  await apiPay(request, token, '터치 테스트', 12_000);
});

for (const screen of SCREENS) {
  test(`every control on ${screen.name} (${screen.path}) is at least 44×44 CSS px`, async ({ page }) => {
    recordAlerts(page);
    if (screen.auth) await openAsCustomer(page, token);
    await page.goto(screen.path);
    await settled(page);
    expect(await smallTargets(page)).toEqual([]);
    if (screen.name === 'qrpin') {
      await page.getByRole('tab', { name: 'PIN 입력' }).click();
      expect(await smallTargets(page)).toEqual([]);
    }
  });
}
