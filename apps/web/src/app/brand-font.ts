import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Pretendard's faces load once the first text or image is on screen (ADR 0110). The first paint never waits
 * for the font subsets a page's Hangul needs (often 150–250 KB on a slow phone network); it is drawn in the
 * phone's own Korean font. The subsets the page's text needs are then loaded and laid out off screen in small
 * idle steps (`brand-font-warm-up.ts`, ADR 0142). The text takes Pretendard at the next change of page
 * (ADR 0257), never under the reader's eyes: switching the page being read moved its text (a hint growing to
 * two lines pushed the statements 21 px down) and laid the whole page out again. Browsers without paint timing
 * start at `load`. The warm-up's code comes with the stylesheet, after the first paint, not with the first load.
 */
export function loadBrandFontAfterFirstPaint(
  load: () => Promise<unknown> = () => import('pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css'),
  warmUp: () => Promise<void> = () => import('./brand-font-warm-up').then(({ warmUpBrandFont }) => warmUpBrandFont()),
): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void load()
      .then(warmUp)
      .then(() => {
        // Kept on the document, where the page change looks for it (and a test or a trace can see it).
        document.documentElement.dataset.brandFont = 'ready';
      });
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
 * Turns the brand font on with the first change of page after its faces are ready (`data-brand-font="ready"`
 * on `<html>`, then `"on"`). A layout effect: the new page and the font are laid out together, once, before
 * that frame is painted, in the moment the screen is changing anyway.
 */
export function BrandFontAtPageChange(): null {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useLayoutEffect(() => {
    if (pathname === shown.current) return;
    shown.current = pathname;
    const root = document.documentElement;
    if (root.dataset.brandFont !== 'ready') return;
    root.classList.add('brand-font');
    root.dataset.brandFont = 'on';
  }, [pathname]);
  // A component of its own, not a hook of the routes: only it renders again at each change of page.
  return null;
}
