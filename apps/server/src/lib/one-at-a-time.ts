/**
 * Calls for the same key run one after another, in arrival order, whatever the previous one's outcome; calls
 * for different keys do not wait for each other. A key is forgotten once its last call has settled.
 */
export function oneAtATime(): <T>(key: string, run: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, run) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const mine = previous.then(
      () => run(),
      () => run(),
    );
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return mine;
  };
}
