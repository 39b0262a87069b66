/**
 * Query results shared by read transactions, each tagged with the store version (the count of
 * committed writes) it was read at: a read at another version computes afresh. An entry weighs 1,
 * plus its length if it is a list; least recently used entries go first once the total weight
 * passes `capacity`.
 */
export class ReadCache {
  private readonly entries = new Map<string, { version: number; value: unknown; weight: number }>();
  private weight = 0;

  constructor(private readonly capacity: number) {}

  get<T>(version: number, key: string, compute: () => T): T {
    const entry = this.entries.get(key);
    if (entry) this.remove(key, entry.weight);
    if (entry?.version === version) {
      this.add(key, entry);
      return entry.value as T;
    }
    const value = compute();
    this.add(key, { version, value, weight: 1 + (Array.isArray(value) ? value.length : 0) });
    for (const [oldest, { weight }] of this.entries) {
      if (this.weight <= this.capacity) break;
      this.remove(oldest, weight);
    }
    return value;
  }

  private add(key: string, entry: { version: number; value: unknown; weight: number }): void {
    this.entries.set(key, entry);
    this.weight += entry.weight;
  }

  private remove(key: string, weight: number): void {
    this.entries.delete(key);
    this.weight -= weight;
  }
}
