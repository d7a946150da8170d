// Cold first screens on a throttled phone (throttled-phone.mjs): how long after navigation each page shows its
// real content, or a skeleton shaped like it, and then its content. Shared by the e2e guard
// (apps/web/e2e/first-screens.spec.ts, 3 s) and `npm run bench` (bench-first-screens.mjs, the 1 s target), so
// both judge the same pages by the same marks.
import { throttle } from './throttled-phone.mjs';

/** The target: a page's first screen within a second on the throttled phone. */
export const FIRST_SCREEN_TARGET_MS = 1_000;

/**
 * The pages and what counts on each: `skeleton` (where the page has one) or `content` makes its first screen;
 * `content` is its real content.
 */
export const FIRST_SCREENS = [
  // Prerendered for everyone: the home's shortcuts are in the HTML.
  { path: '/', signedIn: false, content: 'nav[aria-label="바로가기"]' },
  // The first short's poster, in the HTML itself (#lcp-shell) until the feed's own video is there.
  { path: '/shorts/feeds', signedIn: false, content: '#lcp-shell img, section[aria-label="쇼츠 피드"] video' },
  {
    path: '/payment',
    signedIn: true,
    skeleton: '[data-testid="page-skeleton"]',
    content: '[data-testid="available-amount"]',
  },
  { path: '/mypage', signedIn: true, skeleton: '[data-testid="page-skeleton"]', content: '[data-testid="grade-card"]' },
];

/**
 * In the page, before any script: the time (ms after navigation start, the frame's own timestamp) of the
 * first frame painted with each selector's element on screen. An image counts once it has been decoded.
 */
function watchScreens(marks) {
  window.__screens = {};
  const onScreen = (selector) =>
    [...document.querySelectorAll(selector)].some((el) => {
      if (el instanceof HTMLImageElement && !(el.complete && el.naturalWidth > 0)) return false;
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.top < innerHeight && box.bottom > 0;
    });
  const frame = (now) => {
    for (const [name, selector] of Object.entries(marks)) {
      if (!(name in window.__screens) && onScreen(selector)) window.__screens[name] = now;
    }
    if (Object.keys(window.__screens).length < Object.keys(marks).length) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/**
 * Opens `screen` cold in `page` (a fresh context: nothing cached) on the throttled profile, with `token` in the
 * tab's session when the page needs a customer, and answers `{ firstScreen, content }` in ms after navigation.
 */
export async function measureFirstScreen(page, screen, token) {
  if (screen.signedIn) {
    if (!token) throw new Error(`${screen.path} needs a customer token`);
    await page.addInitScript((t) => sessionStorage.setItem('accessToken', t), token);
  }
  const firstScreen = screen.skeleton ? `${screen.skeleton}, ${screen.content}` : screen.content;
  await page.addInitScript(watchScreens, { firstScreen, content: screen.content });
  await throttle(page);
  await page.goto(screen.path, { waitUntil: 'commit' });
  // The real content comes in the end, whatever showed first.
  await page.locator(screen.content).first().waitFor({ state: 'visible', timeout: 20_000 });
  const times = await page.waitForFunction(
    () => {
      const s = window.__screens;
      return s.firstScreen !== undefined && s.content !== undefined ? s : null;
    },
    undefined,
    { timeout: 10_000 },
  );
  const { firstScreen: shownAt, content: contentAt } = await times.jsonValue();
  return { firstScreen: Math.round(shownAt), content: Math.round(contentAt) };
}
