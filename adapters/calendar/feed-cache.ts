import type { Clock } from '../../ports/clock.js';

export interface FeedCacheOptions<T> {
  clock: Clock;
  ttlMs: number;
  maxEntries: number;
  /** Cap on the summed weight of kept values (for feeds: their size), so big feeds cannot fill the memory. */
  maxWeight: number;
  weigh(value: T): number;
  load(url: string): Promise<T>;
}

interface Entry<T> {
  readonly promise: Promise<T>;
  expiresAt: number;
  weight: number;
}

/**
 * Keeps what `load` answered per URL for ttlMs after it settled, failures included, so a page that reads several
 * windows fetches each feed once and a dead feed is not hammered. Callers asking while a load is under way share it.
 * The least recently used URLs are dropped past maxEntries or maxWeight.
 */
export function createFeedCache<T>(o: FeedCacheOptions<T>): { get(url: string): Promise<T> } {
  const entries = new Map<string, Entry<T>>();
  let weight = 0;

  const drop = (url: string) => {
    const entry = entries.get(url);
    if (!entry) return;
    weight -= entry.weight;
    entries.delete(url);
  };
  const trim = () => {
    for (const oldest of entries.keys()) {
      if (entries.size <= o.maxEntries && weight <= o.maxWeight) break;
      drop(oldest);
    }
  };

  return {
    get(url) {
      const hit = entries.get(url);
      if (hit && hit.expiresAt > o.clock.now().getTime()) {
        // Map keeps insertion order: moving a hit to the end makes the first key the least recently used.
        entries.delete(url);
        entries.set(url, hit);
        return hit.promise;
      }
      drop(url);
      const entry: Entry<T> = { promise: o.load(url), expiresAt: Number.POSITIVE_INFINITY, weight: 0 };
      entries.set(url, entry);
      const settled = (value?: T) => {
        entry.expiresAt = o.clock.now().getTime() + o.ttlMs;
        if (value === undefined || entries.get(url) !== entry) return;
        entry.weight = o.weigh(value);
        weight += entry.weight;
        trim();
      };
      entry.promise.then(settled, () => settled());
      trim();
      return entry.promise;
    },
  };
}
