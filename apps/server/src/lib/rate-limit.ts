/**
 * What a rate limit is: a named fixed window with a limit. The counters themselves live in the database
 * (`db/rate-limit-counters.ts`), so every server instance sees the same count; this file stays free of it.
 */
export interface Window {
  /** Distinct name of what is limited, e.g. 'login-fail:email:a@b.kr'. */
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * No window may be longer than this: the prune job drops every counter whose window began this long ago,
 * and such a window has ended whatever its length (docs/rules/money-and-time.md#T8).
 */
export const LONGEST_WINDOW_MS = 24 * 60 * 60 * 1000;

export function windowStart(now: Date, windowMs: number): Date {
  // A longer window would lose its counts to the prune job while still open.
  if (windowMs > LONGEST_WINDOW_MS) throw new Error(`rate-limit window of ${windowMs} ms exceeds a day`);
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}
