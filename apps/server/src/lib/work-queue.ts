/** Thrown when a bounded queue is full: the caller answers "busy, try later" instead of piling up work. */
export class QueueFullError extends Error {
  constructor() {
    super('work queue full');
    this.name = 'QueueFullError';
  }
}

export interface WorkQueue {
  /** Runs `work` when a slot is free; rejects at once with QueueFullError when too many already wait. */
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly stats: { running: number; waiting: number; maxRunning: number; rejected: number; completed: number };
}

/**
 * At most `concurrency` jobs at a time and at most `maxWaiting` waiting, in arrival order. Used to bound
 * expensive CPU work (argon2 hashing for sign-ups) so a flood cannot take every thread from logins.
 */
export function createWorkQueue(concurrency: number, maxWaiting: number): WorkQueue {
  const waiting: Array<() => void> = [];
  const stats = { running: 0, waiting: 0, maxRunning: 0, rejected: 0, completed: 0 };
  // A finishing job hands its slot straight to the next waiter, so a newcomer can never slip in between.
  const release = () => {
    const next = waiting.shift();
    stats.waiting = waiting.length;
    if (next) next();
    else stats.running -= 1;
  };
  return {
    stats,
    async run(work) {
      if (stats.running >= concurrency) {
        if (waiting.length >= maxWaiting) {
          stats.rejected += 1;
          throw new QueueFullError();
        }
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          stats.waiting = waiting.length;
        });
      } else {
        stats.running += 1;
      }
      stats.maxRunning = Math.max(stats.maxRunning, stats.running);
      try {
        return await work();
      } finally {
        stats.completed += 1;
        release();
      }
    },
  };
}
