// What every bench that drives the server shares: autocannon runs timed to their last answer, and setup calls
// run a few at a time.
import autocannon from 'autocannon';

/**
 * Runs autocannon with `opts`; the result carries `seconds`, the time to the last answer (a fixed `amount` of
 * requests ends there, not at autocannon's own tick).
 */
export function timedLoad(opts) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let lastResponse = started;
    const instance = autocannon(opts, (error, result) =>
      error ? reject(error) : resolve({ ...result, seconds: (lastResponse - started) / 1000 }),
    );
    instance.on('response', () => {
      lastResponse = performance.now();
    });
  });
}

/** Runs fn(0..count-1), `width` at a time; results in order. */
export async function inParallel(count, fn, width = 10) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await fn(i);
      }
    }),
  );
  return results;
}
