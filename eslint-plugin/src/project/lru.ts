/**
 * A map that forgets its least recently used entries past a count or a total weight. The project
 * layer lives as long as the process (a language server runs for days), so every cache in it is
 * one of these.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private totalWeight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly options: { maxWeight?: number; weigh?: (value: V) => number; onEvict?: (key: K, value: V) => void } = {},
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.totalWeight;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting makes this the most recent.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.options.weigh?.(value) ?? 1;
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    const maxWeight = this.options.maxWeight ?? Infinity;
    // The newest entry stays even when it alone is over the weight: the caller asked for it now.
    while (this.entries.size > 1 && (this.entries.size > this.maxEntries || this.totalWeight > maxWeight)) {
      const oldest = this.entries.keys().next().value as K;
      this.evict(oldest);
    }
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
    return true;
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.evict(key);
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  private evict(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
    this.options.onEvict?.(key, entry.value);
  }
}
