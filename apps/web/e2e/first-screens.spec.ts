import { expect } from '@playwright/test';
import { FIRST_SCREEN_TARGET_MS, FIRST_SCREENS, measureFirstScreen } from '../../../scripts/first-screens.mjs';
import { CPU_SLOWDOWN } from '../../../scripts/throttled-phone.mjs';
import { test } from './fixtures';
import { apiCustomer } from './helpers';

/**
 * Cold first screens on a throttled phone (4× CPU, Fast 4G): how long after navigation each page shows its
 * real content, or a skeleton shaped like it, and then its content. The bench holds the tight target
 * (FIRST_SCREEN_TARGET_MS); this guard fails on a regression that a busy test machine cannot explain.
 */
const FIRST_SCREEN_GUARD_MS = 3 * FIRST_SCREEN_TARGET_MS;

for (const screen of FIRST_SCREENS) {
  test(`cold ${screen.path} shows its first screen within ${FIRST_SCREEN_GUARD_MS} ms on a throttled phone`, async ({
    page,
    request,
  }) => {
    const token = screen.signedIn ? await apiCustomer(request) : undefined;
    const { firstScreen, content } = await measureFirstScreen(page, screen, token);
    const line = `${screen.path}: first screen ${firstScreen} ms, content ${content} ms (${CPU_SLOWDOWN}× CPU, Fast 4G)`;
    console.log(line);
    test.info().annotations.push({ type: 'first screen', description: line });
    expect(firstScreen, line).toBeLessThanOrEqual(FIRST_SCREEN_GUARD_MS);
  });
}
