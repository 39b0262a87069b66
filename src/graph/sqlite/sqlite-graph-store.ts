import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { GraphReader, GraphStore, GraphWriter, WriteOptions } from '../graph-store';
import { ReadCache } from '../read-cache';
import { registerPathKey } from './item-paths';
import { ReadPool } from './read-pool';
import { migrate, SCHEMA_VERSION, schemaVersion } from './schema';
import { SerialQueue } from '../serial-queue';
import { SqliteGraphReader } from './sqlite-graph-reader';
import { SqliteGraphWriter } from './sqlite-graph-writer';
import { StatementCache } from './statement-cache';
import { AcceleratedSearch, DEFAULT_SEARCH_CACHE_MIB } from './search/accelerated/accelerated-search';
import { openTermIndex } from './search/term-index';
import { StoreCondition } from './store-condition';
import { WalCheckpointer } from './wal-checkpointer';
import { whenNotBusy } from './when-not-busy';

/**
 * How long SQLite itself waits for another process's write lock before reporting busy: not at all,
 * since its wait would block the event loop (of the thread that answers requests, for a job's
 * record); the wait goes on asynchronously instead (`whenNotBusy`).
 */
const WRITER_BUSY_TIMEOUT_MS = 0;
/** Readers only meet a lock while a WAL file is being recovered, which is brief. */
const READER_BUSY_TIMEOUT_MS = 1000;
/** Concurrent read transactions; more wait for a connection to come back. */
const READ_CONNECTIONS = 4;
const READER_MMAP_BYTES = 256 * 1024 * 1024;
const PAGE_BYTES = 8192;
const WAL_KEPT_BYTES = 64 * 1024 * 1024;
/** Search results and records kept for reuse while nothing is written, in hits held. */
const CACHED_HITS = 300_000;
/**
 * Items' rows, ancestors, child counts and the ids of ranked hits kept likewise, apart, one by one
 * (`cachedEach`), weighed as hits taking the room of their text would (about 200 characters
 * each): some tens of megabytes at most.
 */
const CACHED_ITEM_WEIGHT = 200_000;
/**
 * Two versions: `version` counts commits, and `items_version` is the last one that wrote items.
 * What is kept of items and searches is kept for the latter, records read for the former.
 */
const READ_VERSION = 'SELECT items_version, version FROM store_version';
const BUMP_VERSION = 'UPDATE store_version SET version = version + 1 RETURNING items_version';
const BUMP_ITEMS_VERSION =
  'UPDATE store_version SET version = version + 1, items_version = version + 1 RETURNING items_version';

export interface SqliteStoreOptions {
  /**
   * Text searches ranked by the accelerator in JavaScript from phrases' matches kept per store
   * version, and read ahead for (`AcceleratedSearch`), rather than by FTS5's bm25 in SQL: the same
   * hits (default on).
   */
  acceleratedSearch?: boolean;
  /** The accelerated ranking's cache of phrases' matches, in MiB (default 256). */
  searchCacheMiB?: number;
}

/**
 * The embedded store: SQLite in WAL mode through better-sqlite3. One connection writes, writers
 * queue for it in this process and wait for other processes' locks without blocking the event
 * loop; read transactions run on read-only connections, each on its own committed snapshot, so a
 * writer neither blocks them nor shows them its uncommitted changes.
 */
export class SqliteGraphStore extends GraphStore {
  private readonly writeQueue = new SerialQueue();
  private readonly cache = new ReadCache(CACHED_HITS);
  private readonly itemCache = new ReadCache(CACHED_ITEM_WEIGHT);
  /** The accelerated search, when it is on; the plain search SQL otherwise. */
  private readonly engine?: AcceleratedSearch;
  private closed = false;
  /** Write transactions running in this process: 0 or 1, since writes queue. */
  private writing = 0;

  private constructor(
    private readonly writer: StatementCache,
    private readonly readers: ReadPool,
    private readonly checkpointer: WalCheckpointer,
    private readonly condition: StoreCondition,
    filePath: string,
    options: SqliteStoreOptions,
  ) {
    super();
    if (options.acceleratedSearch ?? true) {
      this.engine = new AcceleratedSearch(
        {
          read: (work) => this.read((tx) => work(tx as SqliteGraphReader)),
          writing: () => this.writing > 0,
          noteError: (error) => this.condition.noteError(error),
        },
        filePath,
        options.searchCacheMiB ?? DEFAULT_SEARCH_CACHE_MIB,
      );
    }
  }

  /** Opens (creating the file and its folder if need be) and brings the schema up to date. */
  static async open(filePath: string, options: SqliteStoreOptions = {}): Promise<SqliteGraphStore> {
    mkdirSync(path.dirname(path.resolve(filePath)), { recursive: true });
    const db = new Database(filePath);
    registerPathKey(db);
    try {
      db.pragma(`busy_timeout = ${WRITER_BUSY_TIMEOUT_MS}`);
      // Takes effect in a new file only. Dependents' rows are a few kilobytes (a description's
      // text): larger pages split less often and make fewer WAL frames to write and checkpoint.
      db.pragma(`page_size = ${PAGE_BYTES}`);
      await whenNotBusy(() => db.pragma('journal_mode = WAL'));
      db.pragma('synchronous = NORMAL');
      // Checkpoints run in a worker after each commit (wal-checkpointer.ts), not inside COMMIT; a
      // WAL file that a large import made large is cut back when the next write starts it over.
      db.pragma('wal_autocheckpoint = 0');
      db.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
      const writer = new StatementCache(db);
      // A current schema needs no lock: a process that opens the store while an import writes (the
      // command line's `token revoke`) does not wait for it.
      if (schemaVersion(db) !== SCHEMA_VERSION) {
        await whenNotBusy(() => writer.get('BEGIN IMMEDIATE').run());
        try {
          migrate(db);
          writer.get('COMMIT').run();
        } finally {
          if (db.inTransaction) writer.get('ROLLBACK').run();
        }
      }
      // A damaged file still opens, so that the service can say it is not ready and why.
      const condition = new StoreCondition(db);
      condition.quickCheck();
      const readers = new ReadPool(() => openReader(filePath), READ_CONNECTIONS);
      const checkpointer = await WalCheckpointer.start(filePath, () => db.pragma('wal_checkpoint(PASSIVE)'));
      return new SqliteGraphStore(writer, readers, checkpointer, condition, filePath, options);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async read<T>(work: (tx: GraphReader) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.noting(this.readInPool(work));
  }

  /** Passes on what the store's errors say about its file to its condition (`problems`). */
  private noting<T>(operation: Promise<T>): Promise<T> {
    return operation.catch((error: unknown) => {
      this.condition.noteError(error);
      throw error;
    });
  }

  private readInPool<T>(work: (tx: GraphReader) => Promise<T>): Promise<T> {
    return this.readers.use(async (connection) => {
      connection.get('BEGIN').run();
      let tx: SqliteGraphReader | undefined;
      // Rolled back however the read ends, a failing first read too (a damaged store): a pooled
      // connection left inside a transaction would refuse every later read.
      try {
        // The first read fixes the transaction's snapshot; its version says which one it is.
        const [version, recordsVersion] = connection.get(READ_VERSION, 'raw').get() as [number, number];
        this.engine?.noticeVersion(version);
        tx = new SqliteGraphReader(
          connection,
          { version, recordsVersion, cache: this.cache, items: this.itemCache },
          this.engine,
        );
        return await work(tx);
      } finally {
        tx?.end();
        connection.get('ROLLBACK').run();
      }
    });
  }

  async write<T>(work: (tx: GraphWriter) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    this.assertOpen();
    const written = this.writeQueue.run(async () => {
      this.writing++;
      let committed: number | undefined;
      try {
        return await this.writeAlone(work, options, (version) => (committed = version));
      } finally {
        this.writing--;
        if (committed !== undefined) this.engine?.noticeVersion(committed);
        // Also for a version a read noticed meanwhile, or one a write interrupted.
        this.engine?.writeEnded();
      }
    });
    return this.noting(written);
  }

  /** The write transaction; `onCommit` is told the version it commits. */
  private async writeAlone<T>(
    work: (tx: GraphWriter) => Promise<T>,
    options: WriteOptions,
    onCommit: (version: number) => void,
  ): Promise<T> {
    await whenNotBusy(() => this.writer.get('BEGIN IMMEDIATE').run());
    const tx = new SqliteGraphWriter(this.writer);
    try {
      const result = await work(tx);
      // Paths are worked out before the commit, not in it; a dry run's would only be thrown away.
      if (options.commit !== false) await tx.prepareCommit();
      tx.end();
      if (options.commit === false) {
        this.writer.get('ROLLBACK').run();
      } else {
        const bump = tx.itemsWritten ? BUMP_ITEMS_VERSION : BUMP_VERSION;
        const version = this.writer.get(bump, 'pluck').get() as number;
        // A write of no items leaves what searches keep valid: nothing to read for them.
        if (tx.itemsWritten) await this.engine?.beforeCommit(this.writer, version);
        await options.beforeCommit?.();
        this.writer.get('COMMIT').run();
        onCommit(version);
        this.checkpointer.request();
      }
      return result;
    } finally {
      tx.end();
      if (this.writer.db.inTransaction) this.writer.get('ROLLBACK').run();
    }
  }

  /**
   * Reads ahead for searches as the store does once it has answered one (`AcceleratedSearch`);
   * resolves when done. Nothing without the accelerated search. For tests.
   */
  readAheadForSearch(): Promise<void> {
    return this.engine?.readAheadNow() ?? Promise.resolve();
  }

  /**
   * Resolves once what is read ahead for the latest committed version (another connection's
   * included) is read; at once where the store reads nothing ahead. For tests.
   */
  async readAheadDone(): Promise<void> {
    // A read notices the latest version, which starts reading ahead for it.
    await this.engine?.readAheadDone(() => this.read(async () => undefined));
  }

  queuedWrites(): number {
    return this.writeQueue.length;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    await this.noting(
      this.readers.use(async (connection) => {
        connection.get('SELECT count(*) FROM sqlite_schema').get();
      }),
    );
  }

  override async problems(): Promise<string[]> {
    // A read that fails on a damaged page is told by the condition, which notes it.
    const unanswered = await this.ping().then(
      () => undefined,
      (error: unknown) => `the store does not answer: ${(error as Error).message}`,
    );
    const problems = this.condition.problems();
    return problems.length > 0 || unanswered === undefined ? problems : [unanswered];
  }

  /** Lets queued writes and running reads finish, then closes every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.engine?.close();
    await this.writeQueue.run(async () => undefined);
    await this.checkpointer.close();
    await this.readers.close();
    this.writer.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The graph store is closed');
  }
}

function openReader(filePath: string): StatementCache {
  const db = new Database(filePath, { readonly: true, fileMustExist: true });
  // Faceted searches name countries and holders by the keys in paths (faceted-search.ts).
  registerPathKey(db);
  db.pragma(`busy_timeout = ${READER_BUSY_TIMEOUT_MS}`);
  db.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
  openTermIndex(db);
  return new StatementCache(db);
}
