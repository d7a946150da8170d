/** What a spaced wake needs of time: a monotonic "now" in ms and a cancellable timer. */
export interface WakeTimer {
  now(): number;
  /** Calls `fn` after `ms`; returns the function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

const realTimer: WakeTimer = {
  now: () => performance.now(),
  after(ms, fn) {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return () => clearTimeout(handle);
  },
};

export interface SpacedWake {
  /** Asks for a call: at once after a quiet spell, else at the end of the current spacing. */
  wake(): void;
  /** Cancels a pending call; later wakes do nothing. */
  stop(): void;
}

/**
 * A wake-up that may be asked for at any rate but calls `fn` at most once every `spacingMs`. A wake after a
 * quiet spell calls it at once (no added delay when little happens); wakes within the spacing share one call
 * at its end. None is lost: every wake is followed by a call that starts after it. Under load this turns one
 * call per wake into one per spacing, each taking what the wakes in between left (ADR 0164).
 */
export function spacedWake(fn: () => void, spacingMs: number, timer: WakeTimer = realTimer): SpacedWake {
  let lastCall = Number.NEGATIVE_INFINITY;
  let cancelPending: (() => void) | null = null;
  let stopped = false;
  const call = () => {
    cancelPending = null;
    lastCall = timer.now();
    fn();
  };
  return {
    wake() {
      if (stopped || cancelPending) return;
      const wait = lastCall + spacingMs - timer.now();
      if (wait <= 0) call();
      else cancelPending = timer.after(wait, call);
    },
    stop() {
      stopped = true;
      cancelPending?.();
      cancelPending = null;
    },
  };
}
