// The first-screen rows of `npm run bench`: each page of first-screens.mjs opened cold on the throttled phone
// profile (4× CPU, Fast 4G) in a fresh browser context, three times; the median run's first screen (content or
// its skeleton) against the 1 s target, and when the real content showed.
import { FIRST_SCREEN_TARGET_MS, FIRST_SCREENS, measureFirstScreen } from './first-screens.mjs';
import { demoAccessToken } from './lighthouse-browser.mjs';

const RUNS = Number(process.env.BENCH_FIRST_SCREEN_RUNS ?? 3);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/**
 * Measures every first screen against the server at `base` in the Chromium `used` (lighthouse-browser.mjs's
 * choice), signed in as the demo customer where a page needs it; `row(figure, measured, target, ok)` adds each
 * page's line to the bench's table.
 */
export async function firstScreens({ base, used, row }) {
  const accessToken = await demoAccessToken(base);
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: used.chrome, env: used.env, args: ['--no-sandbox'] });
  try {
    for (const screen of FIRST_SCREENS) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({
          baseURL: base,
          viewport: { width: 390, height: 844 },
          isMobile: true,
          hasTouch: true,
          serviceWorkers: 'block',
        });
        try {
          runs.push(await measureFirstScreen(await context.newPage(), screen, accessToken));
        } finally {
          await context.close();
        }
      }
      const shown = median(runs.map((r) => r.firstScreen));
      row(
        `first screen, cold ${screen.path}${screen.signedIn ? ' (signed in)' : ''} (4× CPU, Fast 4G; median of ${RUNS})`,
        `${shown} ms (runs ${runs.map((r) => r.firstScreen).join('/')}${screen.skeleton ? ', a skeleton or the content' : ''}); content ${median(runs.map((r) => r.content))} ms (runs ${runs.map((r) => r.content).join('/')}); ${used.kind}`,
        `≤ ${FIRST_SCREEN_TARGET_MS.toLocaleString('en-US')} ms`,
        shown <= FIRST_SCREEN_TARGET_MS,
      );
    }
  } finally {
    await browser.close();
  }
}
