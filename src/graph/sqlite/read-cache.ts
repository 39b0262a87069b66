/**
 * Query results shared by read transactions, each tagged with the store version (the count of
 * committed writes) it was read at: a read at another version computes afresh. Least recently
 * used entries go first once `capacity` is reached.
 */
export class ReadCache {
  private readonly entries = new Map<string, { version: number; value: unknown }>();

  constructor(private readonly capacity: number) {}

  get<T>(version: number, key: string, compute: () => T): T {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (entry?.version === version) {
      this.entries.set(key, entry);
      return entry.value as T;
    }
    const value = compute();
    this.entries.set(key, { version, value });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
