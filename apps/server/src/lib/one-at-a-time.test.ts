import { describe, expect, it } from 'vitest';
import { deferred } from '../test/deferred';
import { oneAtATime } from './one-at-a-time';

describe('oneAtATime', () => {
  it('starts a call for a key only after the previous one settled, failed ones included', async () => {
    const serial = oneAtATime();
    const started: string[] = [];
    const first = deferred<string>();
    const second = deferred<string>();
    const a = serial('k', () => {
      started.push('a');
      return first.promise;
    });
    const b = serial('k', () => {
      started.push('b');
      return second.promise;
    });
    const c = serial('k', async () => {
      started.push('c');
      return 'c';
    });
    await Promise.resolve();
    expect(started).toEqual(['a']);
    first.reject(new Error('a failed'));
    await expect(a).rejects.toThrow('a failed');
    await new Promise((wake) => setImmediate(wake));
    expect(started).toEqual(['a', 'b']);
    second.resolve('b');
    expect(await Promise.all([b, c])).toEqual(['b', 'c']);
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it('lets calls for different keys run at the same time', async () => {
    const serial = oneAtATime();
    const held = deferred<string>();
    const slow = serial('one', () => held.promise);
    expect(await serial('two', async () => 'two')).toBe('two');
    held.resolve('one');
    expect(await slow).toBe('one');
  });
});
