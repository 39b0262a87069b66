import type { SearchReader } from './graph-search';
import type { ItemGraphReader, ItemGraphWriter } from './item-graph';
import type { RecordReader, RecordWriter } from './records';

export * from './graph-search';
export * from './item-graph';
export * from './records';

/**
 * The persistence port. Domain code reaches the data only through this class; it is also the DI
 * token, bound to the SQLite or the Neo4j adapter by `GraphModule` according to `GRAPH_URL`.
 *
 * Every operation takes and returns batches, so that an import of 100,000 units is a few hundred
 * round trips to a remote store, not 100,000.
 */
export interface WriteOptions {
  /** False: a dry run, which sees its own writes and is rolled back. Default true. */
  commit?: boolean;
  /**
   * Called last before the commit, inside the transaction: a rejection rolls the write back (an
   * import whose token was revoked meanwhile). Not called for a dry run.
   */
  beforeCommit?: () => Promise<void>;
  /**
   * A write of records that no other write touches (a token's, on Neo4j): where the store locks
   * what each write touches, it neither queues behind other writes nor takes their lock.
   */
  apart?: boolean;
}

export abstract class GraphStore {
  /** A read transaction: sees one consistent, committed snapshot; never blocked by a writer. */
  abstract read<T>(work: (tx: GraphReader) => Promise<T>): Promise<T>;

  /**
   * A write transaction. Writers queue: a second writer waits for the first to finish, it never
   * fails because the store is busy. The transaction commits when `work` resolves and `commit` is
   * true (the default); it rolls back when `work` rejects or `commit` is false (a dry run sees its
   * own writes and then leaves nothing behind).
   */
  abstract write<T>(work: (tx: GraphWriter) => Promise<T>, options?: WriteOptions): Promise<T>;

  /** Resolves when the store answers; rejects otherwise. */
  abstract ping(): Promise<void>;

  /**
   * What keeps the store from serving now (damaged, read-only), in words for operators; empty
   * when nothing does. Rejects when the store does not answer.
   */
  async problems(): Promise<string[]> {
    await this.ping();
    return [];
  }

  /** Write transactions of this process queued or running, for the metrics. */
  abstract queuedWrites(): number;

  abstract close(): Promise<void>;
}

/**
 * A read transaction: the item graph's, the search's and the records' reads (each port in its own
 * file), at one snapshot. Code that needs one of them names that one.
 */
export interface GraphReader extends ItemGraphReader, SearchReader, RecordReader {
  /**
   * The committed version of the store this read sees, where the store numbers them (every commit
   * makes a new one): reads at one version see the same data, so their results may be kept for it.
   * Undefined in a write and in stores that do not number versions.
   */
  readonly version?: number;
}

/** A write transaction: the reads, and the item graph's and the records' writes. */
export interface GraphWriter extends GraphReader, ItemGraphWriter, RecordWriter {}
