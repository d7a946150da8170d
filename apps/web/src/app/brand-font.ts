import { runWhenIdle } from '../shared/idle-queue';

/**
 * Pretendard's faces load once the first text or image is on screen (ADR 0110). The first paint never waits
 * for the font subsets a page's Hangul needs (often 150–250 KB on a slow phone network); it is drawn in the
 * phone's own Korean font. The subsets the page's text needs are then loaded together, and the text switches
 * to Pretendard in one step (`brand-font` on <html>, tokens.css): one relayout instead of one per subset, each
 * of which was a long task on a slow phone (ADR 0117). Browsers without paint timing start at `load`.
 */
export function loadBrandFontAfterFirstPaint(
  load: () => Promise<unknown> = () => import('pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css'),
  apply: () => Promise<void> = switchToBrandFont,
): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void load().then(apply);
  };
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((entries, observer) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      start();
    }).observe({ type: 'paint', buffered: true });
  } else {
    addEventListener('load', start, { once: true });
  }
}

/**
 * Loads the faces for the text on screen, then turns the brand font on for the whole document in an idle
 * moment: the relayout it costs never lands in the middle of the first render or hydration.
 */
async function switchToBrandFont(): Promise<void> {
  const text = document.body.innerText.slice(0, 4000);
  await document.fonts?.load('1em "Pretendard Variable"', text).catch(() => undefined);
  runWhenIdle(() => document.documentElement.classList.add('brand-font'));
}
