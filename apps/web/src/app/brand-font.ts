/**
 * Pretendard's faces load once the first text or image is on screen (ADR 0110). The first paint never waits
 * for the font subsets a page's Hangul needs (often 150–250 KB on a slow phone network); it is drawn in the
 * phone's own Korean font. The subsets the page's text needs are then loaded together, and the text switches
 * to Pretendard in small idle steps (`brand-font-switch.ts`, ADR 0142): never one relayout per subset, each
 * of which was a long task on a slow phone (ADR 0117). Browsers without paint timing start at `load`. The
 * switch's code comes with the stylesheet, after the first paint, not with the first load.
 */
export function loadBrandFontAfterFirstPaint(
  load: () => Promise<unknown> = () => import('pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css'),
  apply: () => Promise<void> = () => import('./brand-font-switch').then(({ switchToBrandFont }) => switchToBrandFont()),
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
