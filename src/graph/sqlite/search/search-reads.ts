import { ReadCache } from '../../read-cache';
import { RowMode, StatementCache } from '../statement-cache';

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
