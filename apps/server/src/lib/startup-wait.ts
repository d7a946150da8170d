import { reasonOf } from './dependency-step';
import { isDependencyOutage } from './unavailable';

/** Back-off between tries: quick after a blip, at most every 5 s during a long outage. */
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

export interface StartupWaitOptions {
  /** What is waited for, as the log names it: `database (db.internal:5432/ohgood)`. */
  what: string;
  /** Give up (and let the start fail) once this long has passed since the first try. */
  waitMs: number;
  log: (line: string) => void;
  /** Called once, at the first failed try: the instance starts answering probes while it waits. */
  onWaiting?: () => Promise<void> | void;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Runs `attempt` until it succeeds, trying again with back-off while it fails as an outage (the
 * dependency down or not up yet), with a log line per failed try. Any other failure (a wrong password, a
 * bad migration) ends the wait at once, as does the bound: then the last error is thrown with how long it
 * was waited for, and the start fails with that clear message.
 */
export async function waitForDependency<T>(attempt: () => Promise<T>, options: StartupWaitOptions): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const began = Date.now();
  let delay = FIRST_DELAY_MS;
  for (let tries = 1; ; tries++) {
    try {
      const result = await attempt();
      if (tries > 1) options.log(`${options.what} is reachable after ${tries} tries; starting`);
      return result;
    } catch (error) {
      const waited = Date.now() - began;
      const remaining = options.waitMs - waited;
      if (!isDependencyOutage(error) || remaining <= 0) {
        if (tries > 1) {
          throw new Error(`gave up waiting ${Math.round(waited / 1000)} s: ${reasonOf(error)}`, { cause: error });
        }
        throw error;
      }
      if (tries === 1) await options.onWaiting?.();
      options.log(
        `${options.what} is not reachable (${reasonOf(error)}), try ${tries}; trying again in ${Math.min(delay, remaining)} ms ` +
          `(waiting up to ${Math.round(options.waitMs / 1000)} s in all)`,
      );
      await sleep(Math.min(delay, remaining));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
