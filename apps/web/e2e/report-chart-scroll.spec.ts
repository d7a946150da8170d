import { expect, type Locator } from '@playwright/test';
import { test } from './fixtures';
import { logInAsDemo } from './helpers';

/**
 * Whether every bar in view, with its amount and month, is whole: none reaches past the row's visible
 * edges (a bar partly in view would show a label cut in half).
 */
function noBarCut(row: Locator): Promise<boolean> {
  return row.evaluate((el) => {
    const area = el.getBoundingClientRect();
    return [...el.querySelectorAll('[data-month]')].every((bar) => {
      const box = bar.getBoundingClientRect();
      const inView = box.right > area.left + 1 && box.left < area.right - 1;
      const amount = bar.firstElementChild?.getBoundingClientRect();
      const labelInside = !amount || (amount.left >= box.left - 0.5 && amount.right <= box.right + 0.5);
      return !inView || (box.left >= area.left - 1 && box.right <= area.right + 1 && labelInside);
    });
  });
}

test('the 12-month chart fades the side that scrolls and never cuts a label at its edges', async ({ page }) => {
  await logInAsDemo(page);
  await page.goto('/dashboard');
  const row = page.getByTestId('monthly-bars');
  const bars = row.getByRole('button');

  // Three months fit: nothing scrolls, nothing fades.
  await expect(bars).toHaveCount(3);
  await expect(row).not.toHaveAttribute('data-more-before');
  await expect(row).not.toHaveAttribute('data-more-after');

  // Twelve open on the latest month at the right end: the earlier months are off to the left, faded, and
  // the first bar in view is whole.
  await page.getByRole('button', { name: '12개월' }).click();
  await expect(bars).toHaveCount(12);
  await expect(row).toHaveAttribute('data-more-before', 'true');
  await expect(row).not.toHaveAttribute('data-more-after');
  expect(await row.evaluate((el) => getComputedStyle(el).maskImage)).toContain('linear-gradient');
  await expect.poll(() => noBarCut(row)).toBe(true);
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/.tmp/chart-12-end.png' });

  // Scrolled to its start, the fade moves to the right; the first month's amount and name are whole.
  await row.evaluate((el) => el.scrollTo({ left: 0 }));
  await expect(row).toHaveAttribute('data-more-after', 'true');
  await expect(row).not.toHaveAttribute('data-more-before');
  await expect.poll(() => noBarCut(row)).toBe(true);
  await page.screenshot({ path: 'e2e/.tmp/chart-12-start.png' });

  // A swipe that stops between two bars comes to rest on whole bars.
  await row.hover();
  await page.mouse.wheel(70, 0);
  await expect(row).toHaveAttribute('data-more-before', 'true');
  await expect.poll(() => noBarCut(row)).toBe(true);
});
