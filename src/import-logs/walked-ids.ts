/**
 * A list of ids read from where they are kept each time it is walked, not held in the heap: an
 * import's log lists every id it touched, and held in the heap those lists grow with the import,
 * while an import's memory must not grow with the size of its sources.
 * `jsonChunks` writes one piece by piece and the stored log writes one into part records as it
 * walks it; `JSON.stringify` reads it whole (`toJSON`), which suits short lists only.
 */
export class WalkedIds implements Iterable<string> {
  constructor(
    readonly length: number,
    private readonly walk: () => Iterable<string>,
  ) {}

  [Symbol.iterator](): Iterator<string> {
    return this.walk()[Symbol.iterator]();
  }

  toJSON(): string[] {
    return [...this];
  }
}

/** The ids of an import log's lists: held, or walked when they are read. */
export type Ids = readonly string[] | WalkedIds;
