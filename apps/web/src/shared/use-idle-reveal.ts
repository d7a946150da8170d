import { startTransition, useEffect, useState } from 'react';
import { runWhenIdle } from './idle-queue';

/**
 * For a card below the fold: false until `ready` (its data has come) and then the browser has had an idle
 * moment for it; true from then on. Until then the card keeps its loading look, so rendering and laying
 * out its content (bars, slides) runs in a task of its own instead of adding to the long tasks that
 * show the page's first screen. The reveal is a transition: React renders the content in slices and yields
 * to the browser between them (an update from an idle callback would otherwise render in one piece).
 */
export function useIdleReveal(ready: boolean): boolean {
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    if (!ready || revealed) return;
    return runWhenIdle(() => startTransition(() => setRevealed(true)));
  }, [ready, revealed]);
  return revealed;
}
