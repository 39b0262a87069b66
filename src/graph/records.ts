import { Props } from '../items/bundle';

/**
 * Records that are not archival items: tokens, import logs, jobs, tombstones. Stored as plain
 * nodes of their own type with flat properties; `RecordQuery` filters on equality and ranges.
 * Only each record type's repository reads or writes them, through its mapper.
 */
export interface RecordNode {
  id: string;
  type: string;
  props: Props;
}

export interface RecordQuery {
  type: string;
  /** Property equals value. */
  equals?: Props;
  /** Property within [from, to] (inclusive; either bound optional); strings compare as text. */
  range?: { property: string; from?: string | number; to?: string | number };
  orderBy?: { property: string; descending?: boolean };
  /**
   * Only the records whose id sorts after this one: with no `orderBy`, a cursor to the page after
   * the one that ended with it, which records written meanwhile do not shift as an offset would.
   */
  after?: string;
  offset?: number;
  limit?: number;
}

/** The record reads of a transaction. */
export interface RecordReader {
  getRecord(id: string): Promise<RecordNode | undefined>;
  findRecords(query: RecordQuery): Promise<{ total: number; records: RecordNode[] }>;
}

/** The record writes of a write transaction. */
export interface RecordWriter extends RecordReader {
  /** Creates or replaces records. */
  putRecords(records: readonly RecordNode[]): Promise<void>;
}
