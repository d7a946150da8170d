import { useEffect, useState } from 'react';
import { runWhenIdle } from '../../shared/idle-queue';

/** True when the user asked the system for less motion. */
export function usePrefersReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)';
  const [reduced, setReduced] = useState(() => typeof window !== 'undefined' && window.matchMedia?.(query).matches);
  useEffect(() => {
    const list = window.matchMedia?.(query);
    if (!list) return;
    const onChange = () => setReduced(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return Boolean(reduced);
}

/**
 * Index of the ticker item to show: advances every `intervalMs` through `count` items unless paused. The
 * first turn is timed from the browser's first idle moment after the items came (see runWhenIdle), not from
 * their arrival: while the page is still loading (its other cards, the brand font) no turn adds a render.
 */
export function useTicker(count: number, intervalMs: number, paused: boolean): number {
  const [index, setIndex] = useState(0);
  const [settled, setSettled] = useState(false);
  const rotates = count >= 2;
  useEffect(() => {
    if (!rotates || settled) return;
    return runWhenIdle(() => setSettled(true));
  }, [rotates, settled]);
  useEffect(() => {
    if (paused || !rotates || !settled) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), intervalMs);
    return () => window.clearInterval(timer);
  }, [count, intervalMs, paused, rotates, settled]);
  return count > 0 ? index % count : 0;
}
