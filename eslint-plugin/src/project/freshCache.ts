import { DISK_CACHE_MS, currentEpoch } from './fileSystem';
import { Lru } from './lru';

/**
 * Answers derived from the disk (where an import goes, which manifest is nearest). One is reused
 * while nothing was overlaid or invalidated since (the epoch) and the disk reads it came from are
 * still trusted; asking again costs a map lookup instead of a resolver run.
 */
export class FreshCache<V> {
  private readonly entries: Lru<string, { epoch: number; at: number; value: V }>;

  constructor(maxEntries: number) {
    this.entries = new Lru(maxEntries);
  }

  get(key: string, compute: () => V): V {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.epoch === currentEpoch() && now - hit.at < DISK_CACHE_MS) return hit.value;
    const value = compute();
    this.entries.set(key, { epoch: currentEpoch(), at: now, value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
