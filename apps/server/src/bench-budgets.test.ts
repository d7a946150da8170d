import { describe, expect, it } from 'vitest';
import { budgetOf, withinBudgets } from '../../../scripts/bench-mixed.mjs';

const MB = 2 ** 20;

describe('the mixed-load knee judges each call type by its own p99 budget', () => {
  it('gives reads and writes nobody pays with 50 ms, money writes 100 ms, an upload 100 ms + 50 ms per MB', () => {
    for (const read of ['feed (anonymous)', 'comments (signed in)', 'search', 'mypage', 'view', 'chat turn'])
      expect(budgetOf(read)).toBe(50);
    for (const money of ['merchant request', 'validate', 'final', 'watch claim']) expect(budgetOf(money)).toBe(100);
    expect(budgetOf('upload', 0.3 * MB)).toBe(115);
    expect(budgetOf('upload', 2 * MB)).toBe(200);
  });

  it('keeps a step whose final takes 80 ms and upload 60 ms within budget, but not a read of 55 ms', () => {
    const feed = { type: 'feed (anonymous)', p99: 40, budget: budgetOf('feed (anonymous)'), errors: 0 };
    const final = { type: 'final', p99: 80, budget: budgetOf('final'), errors: 0 };
    const upload = { type: 'upload', p99: 60, budget: budgetOf('upload', 0.25 * MB), errors: 0 };
    expect(withinBudgets([feed, final, upload])).toBe(true);
    const slowSearch = { type: 'search', p99: 55, budget: budgetOf('search'), errors: 0 };
    expect(withinBudgets([feed, final, upload, slowSearch])).toBe(false);
    expect(withinBudgets([{ ...final, p99: 101 }])).toBe(false);
    expect(withinBudgets([{ ...feed, errors: 1 }])).toBe(false);
  });
});
