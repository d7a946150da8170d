import { describe, expect, it } from 'vitest';
import { CacheHome } from './cache-home';

describe('CacheHome', () => {
  it('keeps at most its capacity, dropping the least recently used entry first', () => {
    const home = new CacheHome();
    const cache = home.define<number, string>({ name: 'three', max: 3, droppedBy: {} });
    for (const key of [1, 2, 3]) cache.set(key, `v${key}`);
    expect(cache.get(1)).toBe('v1'); // 1 is now the most recently used; 2 the least
    cache.set(4, 'v4');
    expect(cache.peek(2)).toBeUndefined();
    expect([1, 3, 4].map((key) => cache.peek(key))).toEqual(['v1', 'v3', 'v4']);
    for (let key = 5; key < 50; key++) cache.set(key, `v${key}`);
    expect(home.stats()).toEqual([{ name: 'three', hits: 1, misses: 0, size: 3, max: 3 }]);
  });

  it('drops only the keys a followed change names, and refuses an answer read before the change', () => {
    const home = new CacheHome();
    const byShort = home.define<number, string>({
      name: 'by-short',
      max: 10,
      droppedBy: { counts: (ids) => ids },
    });
    const feed = home.define<string, string>({ name: 'feed', max: 10, droppedBy: { ranking: 'all' } });
    byShort.set(1, 'one');
    byShort.set(2, 'two');
    feed.set('page-1', 'feed');
    const readBefore = byShort.generation();
    home.drop({ kind: 'counts', ids: [1] });
    expect(byShort.peek(1)).toBeUndefined();
    expect(byShort.peek(2)).toBe('two');
    expect(feed.peek('page-1')).toBe('feed');
    byShort.set(1, 'stale one', readBefore);
    expect(byShort.peek(1)).toBeUndefined();
    byShort.set(1, 'fresh one', byShort.generation());
    expect(byShort.peek(1)).toBe('fresh one');
  });
});
