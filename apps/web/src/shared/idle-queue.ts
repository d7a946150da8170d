/*
 * Jobs that can wait for the browser to be idle, run one per idle period in the order queued. One at a
 * time on purpose: after a job that renders, the browser lays out and paints that alone before the next
 * job runs, so the work of several never adds up to one long task.
 */
const queue: Array<() => void> = [];
let scheduled = false;

/** The longest a job waits when the browser never idles (ms). */
const IDLE_TIMEOUT_MS = 1000;

// Safari has no requestIdleCallback: there a job runs on the next turn of the event loop.
const requestIdle = (run: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(run);

function runNext(): void {
  scheduled = false;
  queue.shift()?.();
  schedule();
}

function schedule(): void {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  requestIdle(runNext);
}

/** Queues `job`; the function returned takes it off the queue if it has not run yet. */
export function runWhenIdle(job: () => void): () => void {
  queue.push(job);
  schedule();
  return () => {
    const index = queue.indexOf(job);
    if (index >= 0) queue.splice(index, 1);
  };
}
