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

/**
 * autocannon options that send each of `calls` once, in order (`{ method, path, headers, body }`; a body is
 * sent as JSON). With a fixed amount the run ends at its last answer: `timedLoad`'s `seconds` is its length.
 * `onResponse(status, body)`, when given, sees every answer (its body as text).
 */
export function eachCall(base, calls, onResponse) {
  let sent = 0;
  return {
    url: base,
    amount: calls.length,
    requests: [
      {
        setupRequest: (req) => {
          const call = calls[sent++ % calls.length];
          return {
            ...req,
            method: call.method,
            path: call.path,
            headers: { ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
            ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
          };
        },
        ...(onResponse ? { onResponse: (status, body) => onResponse(status, body) } : {}),
      },
    ],
  };
}
