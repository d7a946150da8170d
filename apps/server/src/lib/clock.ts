/**
 * The one source of time; the business calendar is Asia/Seoul (docs/rules/money-and-time.md#T2), see
 * @ohgood/contract/kst.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * Real time shifted to begin at `start`: used by the browser e2e server (CLOCK_START) so date-dependent
 * flows (the 15th, the 16th, month ends) are the same whatever day the suite runs.
 */
export function shiftedClock(start: Date | string): Clock {
  const offset = new Date(start).getTime() - Date.now();
  return { now: () => new Date(Date.now() + offset) };
}

/** A clock tests drive by hand. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

// The KST calendar helpers (kstDate, kstMonth, addMonths, …) live in `@ohgood/contract/kst`, so the web app
// uses the very same ones; this module is the server's one door to the current instant.
