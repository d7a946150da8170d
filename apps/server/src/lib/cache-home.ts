import { LRUCache } from 'lru-cache';

/**
 * What can change under a cached answer. Each kind names the data that moved, never the request that moved
 * it: watching a short (a view, a watch-point claim) changes none of them.
 * - `ranking`: the feed's order or listing.
 * - `counts`: one short's public item (its counters, text, status), keyed by short id.
 * - `comments`: one short's comment rows, keyed by short id.
 * - `viewers`: some viewers' own facts (their reactions, whom they follow), keyed by customer id.
 * - `blocks`: whom some viewers blocked, keyed by customer id.
 * Dropping everything (`drop(null)`) covers the rest: a creator's name or picture, a gap in hearing changes.
 */
export type ChangeKind = 'ranking' | 'counts' | 'comments' | 'viewers' | 'blocks';

/** How a cache follows one kind of change: drop every entry, or only the keys of the ids that changed. */
export type Follow<K> = 'all' | ((ids: readonly number[]) => readonly K[]);

export interface CacheSpec<K> {
  /** Unique per home; the metrics label. */
  name: string;
  /** Most entries kept; the least recently used goes first. */
  max: number;
  /** Entries expire this long after being stored; absent = when dropped or evicted; 0 = nothing is kept. */
  ttlMs?: number;
  /** The changes that drop entries (`drop(null)`, everything, always drops all). */
  droppedBy: Partial<Record<ChangeKind, Follow<K>>>;
}

export interface CacheStats {
  name: string;
  hits: number;
  misses: number;
  size: number;
  max: number;
}

export interface Cache<K extends {}, V extends {}> {
  readonly name: string;
  /** The stored value, counting a hit or a miss. */
  get(key: K): V | undefined;
  /** The stored value without counting or touching its recency (for merging into an entry in place). */
  peek(key: K): V | undefined;
  /**
   * Stores `value` unless something this cache follows changed since `readOn` (a `generation()` taken
   * before the read): an answer computed before a change must not be kept after it.
   */
  set(key: K, value: V, readOn?: number): void;
  delete(key: K): void;
  /** Moves on every drop; take it before reading what will be stored. */
  generation(): number;
}

export interface ChangeEvent {
  kind: ChangeKind;
  /** The ids that changed, or every one of that kind. */
  ids: readonly number[] | 'all';
}

/**
 * The one place every in-process cache is declared (name, capacity, TTL, the changes that drop it), on
 * `lru-cache`. One home per app instance: `drop(event)` applies a change to every cache that follows it,
 * and `stats()` gives each cache's hits and misses (for the bench and `/metrics`).
 */
export class CacheHome {
  readonly #caches: Array<{ stats: () => CacheStats; drop: (event: ChangeEvent | null) => void }> = [];
  readonly #names = new Set<string>();
  readonly #listeners = new Set<(event: ChangeEvent | null) => void>();

  define<K extends {}, V extends {}>(spec: CacheSpec<K>): Cache<K, V> {
    if (this.#names.has(spec.name)) throw new Error(`cache ${spec.name} is declared twice`);
    this.#names.add(spec.name);
    // Bounded by `maxSize` at one per entry, the same bound as `max`: with `max`, lru-cache allocates its
    // arrays for every slot up front, ~20 ms of each start for the app's ~80,000; these grow with use.
    const lru = new LRUCache<K, V>({
      maxSize: spec.max,
      sizeCalculation: () => 1,
      ...(spec.ttlMs ? { ttl: spec.ttlMs } : {}),
    });
    const counts = { hits: 0, misses: 0 };
    let generation = 0;
    const drop = (event: ChangeEvent | null) => {
      const follow = event ? spec.droppedBy[event.kind] : 'all';
      if (!follow) return;
      generation += 1;
      if (follow === 'all' || !event || event.ids === 'all') lru.clear();
      else for (const key of follow(event.ids)) lru.delete(key);
    };
    const stats = () => ({ name: spec.name, ...counts, size: lru.size, max: spec.max });
    this.#caches.push({ stats, drop });
    return {
      name: spec.name,
      get(key) {
        const value = lru.get(key);
        if (value === undefined) counts.misses += 1;
        else counts.hits += 1;
        return value;
      },
      peek: (key) => lru.peek(key),
      set(key, value, readOn) {
        if (spec.ttlMs === 0) return;
        if (readOn === undefined || readOn === generation) lru.set(key, value);
      },
      delete: (key) => lru.delete(key),
      generation: () => generation,
    };
  }

  /** Applies one change to every cache; `null` is everything. */
  drop(event: ChangeEvent | null): void {
    for (const cache of this.#caches) cache.drop(event);
    for (const listener of this.#listeners) listener(event);
  }

  /** Calls `listener` after every applied change (tests wait on it instead of on time). */
  onDrop(listener: (event: ChangeEvent | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stats(): CacheStats[] {
    return this.#caches.map((cache) => cache.stats());
  }
}
