import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher';

/** A runBatch whose calls stay open until the test finishes them, so what runs together is observable. */
function controlledRuns(answer: (item: number) => string | Error = (item) => `r${item}`) {
  const calls: Array<{ items: number[]; finish: () => void }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const waiters: Array<() => void> = [];
  const runBatch = (items: readonly number[]) =>
    new Promise<string[]>((resolve, reject) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      calls.push({
        items: [...items],
        finish: () => {
          inFlight -= 1;
          const answers = items.map(answer);
          const failed = answers.find((a) => a instanceof Error);
          if (failed) reject(failed);
          else resolve(answers as string[]);
        },
      });
      for (const wake of waiters.splice(0)) wake();
    });
  /** Resolves once `count` batches have started. */
  const started = async (count: number) => {
    while (calls.length < count) await new Promise<void>((wake) => waiters.push(wake));
  };
  return { calls, runBatch, started, maxInFlight: () => maxInFlight };
}

describe('createBatcher', () => {
  it('runs a lone item at once, alone', async () => {
    const runs = controlledRuns();
    const batcher = createBatcher({ runBatch: runs.runBatch, maxBatch: 10, concurrency: 1 });
    const result = batcher.run(1);
    await runs.started(1);
    expect(runs.calls[0]?.items).toEqual([1]);
    runs.calls[0]?.finish();
    expect(await result).toBe('r1');
  });

  it('runs the items that arrive while the slots are busy together, each answered with its own result', async () => {
    const runs = controlledRuns();
    const batcher = createBatcher({ runBatch: runs.runBatch, maxBatch: 10, concurrency: 1 });
    const first = batcher.run(1);
    await runs.started(1);
    const later = [2, 3, 4].map((item) => batcher.run(item));
    expect(runs.calls).toHaveLength(1);
    runs.calls[0]?.finish();
    await runs.started(2);
    expect(runs.calls[1]?.items).toEqual([2, 3, 4]);
    runs.calls[1]?.finish();
    expect(await Promise.all([first, ...later])).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(batcher.stats).toMatchObject({ batches: 2, items: 4, largest: 3 });
  });

  it('keeps to maxBatch and to the number of batches in flight', async () => {
    const runs = controlledRuns();
    const batcher = createBatcher({ runBatch: runs.runBatch, maxBatch: 2, concurrency: 2 });
    const results = [1, 2, 3, 4, 5, 6, 7].map((item) => batcher.run(item));
    await runs.started(2);
    expect(runs.calls.map((c) => c.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    runs.calls[0]?.finish();
    await runs.started(3);
    runs.calls[1]?.finish();
    await runs.started(4);
    for (const call of runs.calls.slice(2)) call.finish();
    expect(await Promise.all(results)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
    expect(runs.calls.map((c) => c.items)).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    expect(runs.maxInFlight()).toBe(2);
  });

  it('reruns the items of a failed batch one by one, so only the item that fails gets the error', async () => {
    const runs = controlledRuns((item) => (item === 3 ? new Error('item 3 is bad') : `r${item}`));
    const batcher = createBatcher({ runBatch: runs.runBatch, maxBatch: 10, concurrency: 1 });
    const results = [1, 2, 3, 4].map((item) => batcher.run(item).catch((error: Error) => error.message));
    for (let n = 1; n <= 5; n++) {
      await runs.started(n);
      runs.calls[n - 1]?.finish();
    }
    expect(await Promise.all(results)).toEqual(['r1', 'r2', 'item 3 is bad', 'r4']);
    expect(runs.calls.map((c) => c.items)).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]);
    expect(batcher.stats.split).toBe(1);
  });

  it('rejects the items of a batch that answers the wrong number of results', async () => {
    const batcher = createBatcher({ runBatch: async () => ['only one'], maxBatch: 10, concurrency: 1 });
    const results = [1, 2].map((item) => batcher.run(item));
    // Split and rerun alone, each answers one result: then both are fine.
    expect(await Promise.all(results)).toEqual(['only one', 'only one']);
    const short = createBatcher<number, string>({ runBatch: async () => [], maxBatch: 10, concurrency: 1 });
    await expect(short.run(1)).rejects.toThrow('batch answered 0 results for 1 items');
  });
});
