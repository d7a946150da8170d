import { type Browser, type BrowserType, test as base, type LaunchOptions } from '@playwright/test';

/** Playwright's message when the browser process is gone before it answered (a crash at start-up). */
const DIED_AT_START = /Target page, context or browser has been closed|process did exit/;
const LAUNCH_TRIES = 3;

/**
 * Launches the browser, and again when its process dies while starting. The npm Chromium has crashed
 * (SIGSEGV) at start-up on a busy CI machine before any page existed; that is the binary, not the product,
 * so it must not fail a test. Only a death at launch is retried, and it is logged; anything after launch
 * still fails the test as before.
 */
export async function launchSurvivingStartCrash(type: BrowserType, options?: LaunchOptions): Promise<Browser> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await type.launch(options);
    } catch (error) {
      if (attempt >= LAUNCH_TRIES || !DIED_AT_START.test(String(error))) throw error;
      console.warn(`e2e browser died while starting (try ${attempt} of ${LAUNCH_TRIES}); launching again`);
    }
  }
}

/** Every spec's `test`: Playwright's, with its browser launched by `launchSurvivingStartCrash`. */
export const test = base.extend({
  browser: [
    async ({ playwright }, use) => {
      // No options: the worker's launch options (config and `test.use`) are Playwright's defaults.
      const browser = await launchSurvivingStartCrash(playwright.chromium);
      await use(browser);
      await browser.close();
    },
    { scope: 'worker', timeout: 0 },
  ],
});
