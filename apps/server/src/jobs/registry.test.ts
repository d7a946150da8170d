import { expect, it } from 'vitest';
import { periodKey, REGISTRY } from './registry';
import { JOBS } from './runner';

const byName = (name: string) => {
  const job = REGISTRY.find((row) => row.name === name);
  if (!job) throw new Error(`${name} is not registered`);
  return job;
};

it('registers every calendar job once per cluster, and every row under a name of its own', () => {
  const names = REGISTRY.map((row) => row.name);
  expect(new Set(names).size).toBe(names.length);
  for (const job of Object.keys(JOBS)) expect(byName(job)).toMatchObject({ scope: 'cluster' });
  // The rest of the background work: drains once per cluster, process state on every instance.
  for (const name of [
    'payment-expiry',
    'autopay-debits',
    'settlement-payouts',
    'push-sending',
    'webhook-sending',
    'media-sweep',
    'catch-up',
  ])
    expect(byName(name).scope).toBe('cluster');
  for (const name of ['ranking-refresh', 'transcode-takeover']) expect(byName(name).scope).toBe('instance');
});

it('keys a calendar period by its job_runs period in KST, and a drain by its due KST minute', () => {
  // 15:05 UTC on 15 May is 00:05 KST on the 16th: the auto-extension of May, the prune of 16 May.
  const due = new Date('2027-05-15T15:05:00Z');
  expect(periodKey(byName('auto-extension'), due)).toBe('auto-extension:2027-05');
  expect(periodKey(byName('prune'), due)).toBe('prune:2027-05-16');
  expect(periodKey(byName('push-sending'), due)).toBe('push-sending:2027-05-16T00:05');
});
