/**
 * Identical calls that overlap share one run: while a call for `key` is in flight, the next ones wait for it
 * and get its result. A failed run is not shared (its followers run themselves), so a transient error of one
 * call never becomes another call's answer. Only for calls whose repeat must return the same result anyway
 * (an idempotent replay): it saves the repeat's work, it does not change what the repeat answers.
 */
export function singleFlight<T>(): (key: string, run: () => Promise<T>) => Promise<T> {
  const inFlight = new Map<string, Promise<T>>();
  return async (key, run) => {
    const leader = inFlight.get(key);
    if (leader) {
      try {
        return await leader;
      } catch {
        return run();
      }
    }
    const mine = run();
    inFlight.set(key, mine);
    try {
      return await mine;
    } finally {
      if (inFlight.get(key) === mine) inFlight.delete(key);
    }
  };
}
