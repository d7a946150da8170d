import { describe, expect, it } from 'vitest';
import { coalesced } from './coalesced';

/** A run whose every call waits until the test releases it; counts how many runs started. */
function gatedRun() {
  const releases: Array<() => void> = [];
  let started = 0;
  const run = () =>
    new Promise<number>((resolve) => {
      const n = ++started;
      releases.push(() => resolve(n));
    });
  return { run, started: () => started, release: () => releases.shift()?.() };
}

describe('coalesced', () => {
  it('shares one follow-up run among every call made while a run is in flight', async () => {
    const gate = gatedRun();
    const call = coalesced(gate.run);
    const first = call();
    const during = [call(), call(), call()];
    expect(gate.started()).toBe(1);
    gate.release();
    expect(await first).toBe(1);
    // The calls made during run 1 get run 2, which began after them.
    await Promise.resolve();
    expect(gate.started()).toBe(2);
    gate.release();
    expect(await Promise.all(during)).toEqual([2, 2, 2]);
  });

  it('starts a fresh run for a call made when nothing is in flight, and survives a failed run', async () => {
    let n = 0;
    const call = coalesced(async () => {
      n += 1;
      if (n === 1) throw new Error('first run fails');
      return n;
    });
    await expect(call()).rejects.toThrow('first run fails');
    expect(await call()).toBe(2);
    expect(await call()).toBe(3);
  });
});
