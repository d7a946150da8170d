import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { enterPin, merchantRequest, recordAlerts, signUpAndLogIn, uniqueEmail } from './helpers';

/** Relative luminance contrast of two 'rgb(r, g, b)' colours (WCAG 2). */
function contrast(a: string, b: string): number {
  const lum = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Every text colour on the grade card against both stops of its gradient, for each grade. */
async function gradeContrasts(page: Page) {
  return page.getByTestId('grade-card').evaluate((card) => {
    const results: Array<{ grade: string; text: string; color: string; stops: string[] }> = [];
    for (const grade of ['bronze', 'silver', 'gold', 'platinum', 'diamond']) {
      card.setAttribute('data-grade', grade);
      const stops = getComputedStyle(card).backgroundImage.match(/rgba?\([^)]*\)/g) ?? [];
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        if (!text || !node.parentElement) continue;
        const style = getComputedStyle(node.parentElement);
        results.push({ grade, text, color: style.color, stops: [...stops, style.opacity] });
      }
    }
    return results;
  });
}

test('every text on the grade card is at least 4.5:1 on every grade colour', async ({ page }) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('grade'));
  await page.goto('/mypage');
  await expect(page.getByTestId('grade-card')).toBeVisible();
  const rows = await gradeContrasts(page);
  expect(new Set(rows.map((r) => r.grade)).size).toBe(5);
  const weak = rows.flatMap(({ grade, text, color, stops }) => {
    const opacity = stops.pop();
    expect(stops).toHaveLength(2);
    expect(opacity).toBe('1');
    expect(color).not.toMatch(/rgba\(.*,\s*0?\.\d+\)/);
    return stops.filter((stop) => contrast(color, stop) < 4.5).map((stop) => `${grade} "${text}" ${color} on ${stop}`);
  });
  expect(weak).toEqual([]);
});

test('on an empty list 연장 신청 and 즉시 납부 stay tappable and say why', async ({ page }) => {
  const alerts = recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('emptybills'));
  await page.goto('/payment');
  await expect(page.getByText('미납 내역이 없습니다.')).toBeVisible();
  const extend = page.getByRole('button', { name: '연장 신청' });
  const repay = page.getByRole('button', { name: '즉시 납부' });
  // They never look disabled, since a tap answers with the reason (a disabled look that reacts misleads).
  for (const button of [extend, repay]) await expect(button).toBeEnabled();
  await repay.click();
  await expect.poll(() => alerts).toContain('선택된 결제 내역이 없습니다.');
  await extend.click();
  await expect
    .poll(() => alerts)
    .toContain('연장 신청이 불가능 합니다. 아직 청구되지 않은 이번 달 이용분은 연장할 수 없어요.');
});

test('with bills, rows never show in the gap above the footer; 0 points disables the keypad', async ({
  page,
  request,
}) => {
  recordAlerts(page);
  await signUpAndLogIn(page, uniqueEmail('bills'));
  // Enough lines to scroll under the sticky bar. A new customer has 0 points.
  for (let i = 1; i <= 6; i++) {
    const r = await merchantRequest(request, `생활용품 ${i}`, 1_000 * i);
    await enterPin(page, r.pinCode);
    const modal = page.getByRole('dialog', { name: '결제하기' });
    if (i === 1) {
      // The points keypad is visibly off, and says why.
      await expect(modal.getByText('사용할 수 있는 포인트가 없어요.')).toBeVisible();
      const pad = modal.getByRole('group', { name: '사용할 포인트 입력' });
      for (const key of await pad.getByRole('button').all()) await expect(key).toBeDisabled();
      await expect(pad.getByRole('button', { name: '5', exact: true })).toHaveCSS('opacity', '0.6');
      await expect(modal.getByRole('button', { name: '전액사용' })).toBeDisabled();
    }
    await modal.getByRole('button', { name: /결제하기$/ }).click();
    await expect(page.getByTestId('receipt')).toBeVisible();
  }
  await page.goto('/payment');
  const bar = page.getByRole('button', { name: '즉시 납부' }).locator('xpath=../..');
  await expect(page.getByLabel(/생활용품 6/)).toBeVisible();
  await page.evaluate(() => window.scrollBy(0, 300));
  const probe = await bar.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const footer = document.querySelector('[data-testid="footer"]')?.getBoundingClientRect();
    const hits: string[] = [];
    // Every point of the strip between the bar and the footer.
    for (let y = Math.ceil(box.bottom) + 1; footer && y < footer.top; y += 2) {
      const hit = document.elementFromPoint(box.left + box.width / 2, y);
      if (hit?.closest('li')) hits.push(`${y}: ${hit.textContent?.slice(0, 20)}`);
    }
    return { hits, gap: footer ? footer.top - box.bottom : -1 };
  });
  expect(probe.gap).toBeGreaterThan(0);
  expect(probe.hits).toEqual([]);
});
