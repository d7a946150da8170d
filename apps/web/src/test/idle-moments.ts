import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * The browser's idle moments (`requestIdleCallback`), given by hand: `next()` runs the first job queued, and
 * `release()` runs what is still queued and hands later jobs to a timer. Call `release()` when the test ends
 * (in a `finally`), so the app's idle queue is left empty for the next test.
 */
export function idleMomentsByHand() {
  const queued: Array<() => void> = [];
  let byHand = true;
  vi.stubGlobal('requestIdleCallback', (run: () => void) => (byHand ? queued.push(run) : setTimeout(run)));
  return {
    next: () => act(async () => queued.shift()?.()),
    release: async () => {
      byHand = false;
      await act(async () => {
        for (const run of queued.splice(0)) run();
      });
    },
  };
}
