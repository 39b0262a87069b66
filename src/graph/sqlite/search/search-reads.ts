import { ReadCache } from '../../read-cache';
import { RowMode, StatementCache } from '../statement-cache';

/**
 * The caches of the accelerated ranking (`RankingAccelerator`): query phrases' matches and the
 * items' id order, weighed by their rows, and the reads of them under way, shared by the store's
 * readers so that two searches needing the same phrase read it once.
 */
export interface RankingCaches {
  postings: ReadCache;
  reading: Map<string, Promise<unknown>>;
  /**
   * What a writer read for a version before committing it (`search-warmup.ts`), taken into
   * `postings` as searches at that version ask for it.
   */
  handedOver?: { version: number; entries: Map<string, { value: unknown; weight: number }> };
}

/** The store version a read transaction sees, and what is kept for it. */
export interface ReadSnapshot {
  /** The last version that wrote items, for which what is read of items and searches is kept. */
  version: number;
  /** The version, which records read are kept for. */
  recordsVersion: number;
  /** Query results and records. */
  cache: ReadCache;
  /** What is kept per item: cheap to read again, and many, so kept apart from costly results. */
  items: ReadCache;
  /** Present when searches are ranked by the accelerator (`SEARCH_ACCELERATED`). */
  ranking?: RankingCaches;
}

/** What a search reads through: the reader's connection and its caches. */
export interface SearchReads {
  /** Undefined in a write transaction: its reads are never cached. */
  readonly snapshot?: ReadSnapshot;
  statement(sql: string, mode?: RowMode): ReturnType<StatementCache['get']>;
  /** Kept per store version in a read transaction; computed afresh in a write. */
  cached<T>(key: string, compute: () => T, weigh?: (value: T) => number): T;
  /** A value per id, each kept on its own (weighing what `weigh` says); `read` gets the ids missing. */
  cachedEach<T>(
    prefix: string,
    ids: readonly string[],
    read: (ids: readonly string[]) => Map<string, T>,
    weigh: (value: T) => number,
  ): Map<string, T>;
  exists(itemId: string): boolean;
  /** The range of stored paths below an item (item-paths.ts). */
  pathRangeBelow(scopeId: string): { from: string; to: string };
}
