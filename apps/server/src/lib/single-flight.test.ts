import { describe, expect, it } from 'vitest';
import { deferred } from '../test/deferred';
import { singleFlight } from './single-flight';

describe('singleFlight', () => {
  it('runs overlapping calls with one key once and gives every caller that result', async () => {
    const flight = singleFlight<string>();
    const gate = deferred<string>();
    let runs = 0;
    const run = () => {
      runs += 1;
      return gate.promise;
    };
    const first = flight('a', run);
    const second = flight('a', run);
    gate.resolve('paid');
    expect(await Promise.all([first, second])).toEqual(['paid', 'paid']);
    expect(runs).toBe(1);
  });

  it('keeps different keys apart and forgets a key once its run settled', async () => {
    const flight = singleFlight<number>();
    let runs = 0;
    const run = async () => ++runs;
    expect(await Promise.all([flight('a', run), flight('b', run)])).toEqual([1, 2]);
    expect(await flight('a', run)).toBe(3);
  });

  it('does not share a failure: a follower of a failed run runs itself', async () => {
    const flight = singleFlight<string>();
    const gate = deferred<string>();
    const first = flight('a', () => gate.promise);
    const second = flight('a', async () => 'own result');
    gate.reject(new Error('connection reset'));
    await expect(first).rejects.toThrow('connection reset');
    expect(await second).toBe('own result');
  });
});
