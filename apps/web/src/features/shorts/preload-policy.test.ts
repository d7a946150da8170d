import { describe, expect, it } from 'vitest';
import { posterWarmOffsets, slideMedia, slowConnection } from './preload-policy';

const fresh = { sourced: false, postered: false };
const fast = { effectiveType: '4g' };

describe('the feed preload policy', () => {
  it('loads nothing but the visible short until it shows a frame', () => {
    expect(slideMedia(0, false, fresh, fast)).toEqual({ source: true, preload: 'auto', poster: true });
    for (const offset of [-1, 1, 2, 3]) {
      expect(slideMedia(offset, false, fresh, fast)).toEqual({ source: false, preload: 'none', poster: false });
    }
    expect(posterWarmOffsets(false, 2)).toEqual([]);
  });

  it('then loads the next two shorts, and the posters of three', () => {
    expect(slideMedia(1, true, fresh, fast)).toEqual({ source: true, preload: 'auto', poster: true });
    expect(slideMedia(2, true, fresh, fast)).toEqual({ source: true, preload: 'auto', poster: true });
    expect(slideMedia(3, true, fresh, fast)).toEqual({ source: false, preload: 'none', poster: true });
    // The third slide is outside the rendered window: its poster is warmed in the cache instead.
    expect(posterWarmOffsets(true, 2)).toEqual([3]);
  });

  it('keeps to first bytes of the next short on a slow or data-saving connection', () => {
    for (const connection of [
      { effectiveType: '3g' },
      { effectiveType: '2g' },
      { saveData: true, effectiveType: '4g' },
    ]) {
      expect(slowConnection(connection)).toBe(true);
      expect(slideMedia(1, true, fresh, connection).preload).toBe('metadata');
      expect(slideMedia(2, true, fresh, connection)).toMatchObject({ source: false, preload: 'none' });
    }
    // A browser that says nothing of its connection is treated as a fast one.
    expect(slowConnection(undefined)).toBe(false);
    expect(slideMedia(1, true, fresh).preload).toBe('auto');
  });

  it('never takes a source back after a swipe: a loaded short only stops fetching until the new one plays', () => {
    // The short two ahead had its first bytes; a swipe makes it one ahead while the new visible one starts.
    const had = { sourced: true, postered: true };
    expect(slideMedia(1, false, had, fast)).toEqual({ source: true, preload: 'metadata', poster: true });
    // The short just left behind keeps what it has for a swipe back, fetching no more.
    expect(slideMedia(-1, true, had, fast)).toEqual({ source: true, preload: 'metadata', poster: true });
    expect(slideMedia(1, true, had, fast).preload).toBe('auto');
  });
});
