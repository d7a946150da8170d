/**
 * A run that callers may ask for at any rate: while one is in flight, every call made meanwhile shares a single
 * next run, started when the current one settles. Each call therefore resolves with a run that began after
 * the call was made, so whatever the caller wrote before calling is seen, and a burst of calls costs two runs,
 * not one per call.
 */
export function coalesced<T>(run: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const mine = run().finally(() => {
      if (current === mine) current = null;
    });
    current = mine;
    return mine;
  };
  return () => {
    if (!current) return start();
    if (!next) {
      const settled = current.then(
        () => undefined,
        () => undefined,
      );
      next = settled.then(() => {
        next = null;
        return start();
      });
    }
    return next;
  };
}
