interface Entry {
  version: number;
  value: unknown;
  weight: number;
  /** The count of appends when this entry was last appended to the map. */
  appended: number;
}

/**
 * Query results shared by read transactions, each tagged with the store version (the count of
 * committed writes) it was read at: a read at another version computes afresh. An entry weighs 1,
 * plus its length if it is a list, or what `weigh` says; least recently used entries go first
 * once the total weight passes `capacity`.
 *
 * Recency is the map's insertion order, renewed by deleting and appending an entry. A hit renews
 * only an entry in the older half of the map: V8 leaves a deleted key in its hash chain until the
 * map is rehashed, so renewing the same hot key on every hit made chains, and each hit, grow with
 * the hits since the last rehash.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private weight = 0;
  private appends = 0;
  /**
   * Where eviction goes on from: a live iterator over the map, which sees entries added after it
   * and skips deleted ones. Iterating afresh from the start each time would step over every entry
   * deleted since the map last compacted itself, which grows with the evictions.
   */
  private oldest: Iterator<string> = this.entries.keys();

  constructor(private readonly capacity: number) {}

  get<T>(version: number, key: string, compute: () => T, weigh?: (value: T) => number): T {
    const found = this.lookup<T>(version, key);
    if (found) return found.value;
    const value = compute();
    this.put(version, key, value, weigh ? weigh(value) : 1 + (Array.isArray(value) ? value.length : 0));
    return value;
  }

  /** The value kept for `key` at `version`, wrapped (it may itself be undefined), if there is one. */
  lookup<T>(version: number, key: string): { value: T } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.remove(key, entry.weight);
      return undefined;
    }
    if (entry.appended < this.appends - this.entries.size / 2) {
      this.remove(key, entry.weight);
      this.add(key, entry);
    }
    return { value: entry.value as T };
  }

  /**
   * The keys held, whatever their version, with their weights, the most recently used first (as
   * eviction sees them).
   */
  recentEntries(): [key: string, weight: number][] {
    return [...this.entries].reverse().map(([key, entry]) => [key, entry.weight]);
  }

  put(version: number, key: string, value: unknown, weight: number): void {
    const entry = this.entries.get(key);
    if (entry) this.remove(key, entry.weight);
    this.add(key, { version, value, weight, appended: 0 });
    while (this.weight > this.capacity) {
      let oldest = this.oldest.next();
      // Past the end (or never started): the map's order from its start again.
      if (oldest.done) oldest = (this.oldest = this.entries.keys()).next();
      if (oldest.done) break;
      this.remove(oldest.value, this.entries.get(oldest.value)!.weight);
    }
  }

  private add(key: string, entry: Entry): void {
    entry.appended = this.appends++;
    this.entries.set(key, entry);
    this.weight += entry.weight;
  }

  private remove(key: string, weight: number): void {
    this.entries.delete(key);
    this.weight -= weight;
  }
}
