/**
 * Pretendard's faces load once the first text or image is on screen (ADR 0110). The first paint never waits
 * for the font subsets a page's Hangul needs (often 150–250 KB on a slow phone network); it is drawn in the
 * phone's own Korean font and switches to Pretendard as the subsets arrive (`font-display: swap`). Browsers
 * without paint timing load the faces at `load`.
 */
export function loadBrandFontAfterFirstPaint(
  load: () => Promise<unknown> = () => import('pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css'),
): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void load();
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
