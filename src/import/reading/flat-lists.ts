/**
 * What the flat lists that cross threads (`flat-nodes.ts`, `flat-items.ts`) have in common: lists
 * of strings and numbers, which structured clone copies much faster than objects and maps (an
 * object's keys are sent with each one).
 *
 * A name (a field, key, type or tag) is written as text the first time, and as its number (in order
 * of first use) after that: a reading repeats a few dozen names, which then cross once, and the
 * reading side keeps one string per name. So what one writer wrote must be read by one reader, in
 * order.
 */
export class NameWriter {
  private readonly numbers = new Map<string, number>();

  /** `name` as it is written: its text the first time, its number after that. */
  write(name: string): string | number {
    const number = this.numbers.get(name);
    if (number !== undefined) return number;
    this.numbers.set(name, this.numbers.size);
    return name;
  }
}

const NOTHING: readonly unknown[] = [];

/** Reads what one writer of flat lists wrote, value by value, in the order it wrote them. */
export abstract class FlatReader<T> {
  private readonly names: string[] = [];
  private flat = NOTHING;
  private next = 0;

  /** The value written into `flat` from `start`. */
  read(flat: readonly unknown[], start: number): T {
    this.flat = flat;
    this.next = start;
    const value = this.decode();
    // Not to keep the list alive until the next one.
    this.flat = NOTHING;
    return value;
  }

  /** Reads the value that starts at the current place. */
  protected abstract decode(): T;

  protected take(): unknown {
    return this.flat[this.next++];
  }

  protected count(): number {
    return this.flat[this.next++] as number;
  }

  /** The name a `NameWriter` wrote here. */
  protected name(): string {
    const written = this.flat[this.next++] as string | number;
    if (typeof written === 'number') return this.names[written];
    this.names.push(written);
    return written;
  }

  /** The next `count` values, as a list. */
  protected list(count: number): unknown[] {
    const list = this.flat.slice(this.next, this.next + count);
    this.next += count;
    return list;
  }
}
