import { describe, expect, it } from 'vitest';
import { spacedWake, type WakeTimer } from './spaced-wake';

/** A timer the test moves by hand: `advance` fires what has come due, in order. */
function manualTimer() {
  let now = 0;
  let pending: Array<{ at: number; fn: () => void }> = [];
  const timer: WakeTimer = {
    now: () => now,
    after(ms, fn) {
      const entry = { at: now + ms, fn };
      pending.push(entry);
      return () => {
        pending = pending.filter((p) => p !== entry);
      };
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const due of pending.filter((p) => p.at <= now).sort((a, b) => a.at - b.at)) {
      pending = pending.filter((p) => p !== due);
      due.fn();
    }
  };
  return { timer, advance, pendingCount: () => pending.length };
}

describe('spacedWake', () => {
  it('calls at once after a quiet spell, and once at the spacing end for every wake within it', () => {
    const clock = manualTimer();
    const calls: number[] = [];
    const w = spacedWake(() => calls.push(clock.timer.now()), 100, clock.timer);
    w.wake();
    expect(calls).toEqual([0]);
    clock.advance(10);
    w.wake();
    clock.advance(30);
    w.wake();
    w.wake();
    expect(calls).toEqual([0]);
    clock.advance(60);
    // The three wakes inside the spacing share one call, at its end (after each of them).
    expect(calls).toEqual([0, 100]);
    clock.advance(500);
    w.wake();
    expect(calls).toEqual([0, 100, 600]);
  });

  it('never leaves a wake without a later call, however the wakes fall', () => {
    const clock = manualTimer();
    const calls: number[] = [];
    const w = spacedWake(() => calls.push(clock.timer.now()), 100, clock.timer);
    const wakes: number[] = [];
    for (const step of [0, 5, 95, 1, 99, 100, 3, 250, 40, 60, 7]) {
      clock.advance(step);
      w.wake();
      wakes.push(clock.timer.now());
    }
    clock.advance(1_000);
    for (const at of wakes) expect(calls.some((c) => c >= at)).toBe(true);
    // At most one call per spacing.
    const gaps = calls.slice(1).map((at, i) => at - (calls[i] ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(100);
    expect(calls.length).toBeLessThan(wakes.length);
  });

  it('cancels a pending call on stop and ignores later wakes', () => {
    const clock = manualTimer();
    let calls = 0;
    const w = spacedWake(() => calls++, 100, clock.timer);
    w.wake();
    w.wake();
    expect(clock.pendingCount()).toBe(1);
    w.stop();
    expect(clock.pendingCount()).toBe(0);
    w.wake();
    clock.advance(1_000);
    expect(calls).toBe(1);
  });
});
