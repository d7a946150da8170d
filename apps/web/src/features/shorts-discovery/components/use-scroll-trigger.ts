import { useEffect, useRef } from 'react';

/**
 * Calls `onVisible` when the returned sentinel element scrolls into view (10% threshold, 100 px
 * margin). The latest callback is used without re-observing.
 */
export function useScrollTrigger(onVisible: () => void, enabled: boolean) {
  const sentinel = useRef<HTMLDivElement | null>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !enabled) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) callback.current();
      },
      { threshold: 0.1, rootMargin: '100px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled]);
  return sentinel;
}
