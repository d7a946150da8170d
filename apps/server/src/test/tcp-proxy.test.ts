import { expect, it } from 'vitest';
import { readyForQueryWatcher } from './tcp-proxy';

/** ReadyForQuery with status Idle, and the start of a DataRow ('D', its length). */
const ready = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
const dataRowStart = Buffer.from([0x44, 0, 0, 0, 11]);

it('sees a ReadyForQuery that ends a chunk, and what follows it undoes that', () => {
  const endsReady = readyForQueryWatcher();
  expect(endsReady(Buffer.concat([dataRowStart, ready]))).toBe(true);
  expect(endsReady(dataRowStart)).toBe(false);
});

it('sees a ReadyForQuery split across chunks, at every split point', () => {
  for (let at = 1; at < ready.length; at++) {
    const endsReady = readyForQueryWatcher();
    expect(endsReady(Buffer.concat([dataRowStart, ready.subarray(0, at)]))).toBe(false);
    expect(endsReady(ready.subarray(at))).toBe(true);
  }
});

it('does not take a short chunk for the whole message', () => {
  const endsReady = readyForQueryWatcher();
  expect(endsReady(ready.subarray(0, 5))).toBe(false);
  expect(endsReady(Buffer.from([0x49]))).toBe(true);
});
