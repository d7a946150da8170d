/**
 * Calls that arrive while earlier ones are in flight are run together: one `runBatch` call (one database
 * statement, one commit) for many items. Nothing waits on time. An item that finds a free slot starts at the
 * end of the current event-loop turn (with whatever else arrived in that turn); items that arrive while every
 * slot is busy wait and start together as soon as one frees. So a lone call runs at once and alone, and under
 * load each statement carries as many items as arrived meanwhile (up to `maxBatch`).
 */
export interface Batcher<In, Out> {
  run(item: In): Promise<Out>;
  /** Batches run so far and the items they carried (what the tests check). */
  readonly stats: { batches: number; items: number; largest: number; split: number };
}

export interface BatcherOptions<In, Out> {
  /** Runs the items together and answers one result per item, in the same order. */
  runBatch: (items: readonly In[]) => Promise<readonly Out[]>;
  maxBatch: number;
  /** Batches in flight at once (each holds one pooled connection). */
  concurrency: number;
}

type Entry<In, Out> = {
  item: In;
  /** Rerun alone after the batch it was in failed, so an error is answered only to the item that causes it. */
  alone: boolean;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
};

export function createBatcher<In, Out>({ runBatch, maxBatch, concurrency }: BatcherOptions<In, Out>): Batcher<In, Out> {
  let waiting: Entry<In, Out>[] = [];
  let running = 0;
  let flushQueued = false;
  const stats = { batches: 0, items: 0, largest: 0, split: 0 };

  /** The next batch: the oldest items, up to maxBatch; an item to rerun alone goes in a batch of its own. */
  function take(): Entry<In, Out>[] {
    if (waiting[0]?.alone) return waiting.splice(0, 1);
    const end = waiting.findIndex((entry, i) => entry.alone || i >= maxBatch);
    return waiting.splice(0, end === -1 ? waiting.length : end);
  }

  async function start(batch: Entry<In, Out>[]): Promise<void> {
    running += 1;
    stats.batches += 1;
    stats.items += batch.length;
    stats.largest = Math.max(stats.largest, batch.length);
    try {
      const results = await runBatch(batch.map((entry) => entry.item));
      if (results.length !== batch.length) {
        throw new Error(`batch answered ${results.length} results for ${batch.length} items`);
      }
      for (const [i, entry] of batch.entries()) entry.resolve(results[i] as Out);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
      } else {
        // One statement failed for all: each item runs again on its own, ahead of newer items.
        stats.split += 1;
        waiting = [...batch.map((entry) => ({ ...entry, alone: true })), ...waiting];
      }
    } finally {
      running -= 1;
      flush();
    }
  }

  function flush(): void {
    while (running < concurrency && waiting.length > 0) void start(take());
  }

  return {
    stats,
    run(item) {
      return new Promise<Out>((resolve, reject) => {
        waiting.push({ item, alone: false, resolve, reject });
        if (running < concurrency && !flushQueued) {
          // Let the rest of this turn's arrivals (requests read from the same socket poll) join the batch.
          flushQueued = true;
          setImmediate(() => {
            flushQueued = false;
            flush();
          });
        }
      });
    },
  };
}
