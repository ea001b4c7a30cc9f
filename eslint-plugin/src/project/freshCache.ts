import type { FileRead } from './fileSystem';
import { DISK_CACHE_MS, captureReads, currentEpoch, isReadCurrent, readLogOpen, replayReads } from './fileSystem';
import { Lru } from './lru';

/**
 * Answers derived from the disk (where an import goes, which manifest is nearest). One is reused
 * while nothing was overlaid or invalidated since (the epoch) and the disk reads it came from are
 * still trusted; asking again costs a map lookup instead of a resolver run. Each answer keeps the
 * reads it was computed from, so a read log open when it is reused still sees them.
 */
export class FreshCache<V> {
  private readonly entries: Lru<string, { epoch: number; at: number; value: V; reads: readonly FileRead[] | null }>;

  constructor(maxEntries: number) {
    this.entries = new Lru(maxEntries);
  }

  get(key: string, compute: () => V): V {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.epoch === currentEpoch() && now - hit.at < DISK_CACHE_MS) {
      if (hit.reads) {
        replayReads(hit.reads);
        return hit.value;
      }
      // Computed before any read log existed: what it read is unknown, so it is computed again.
      if (!readLogOpen()) return hit.value;
    }
    // Expired, yet everything it was computed from still reads the same: the answer would come out
    // the same, and checking those reads costs a few stats where a resolver run costs milliseconds.
    // As for the language server's re-lints, symlink targets are not among the reads.
    if (hit && hit.epoch === currentEpoch() && hit.reads && hit.reads.every(isReadCurrent)) {
      hit.at = now;
      replayReads(hit.reads);
      return hit.value;
    }
    const { value, reads } = captureReads(compute);
    this.entries.set(key, { epoch: currentEpoch(), at: now, value, reads });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
