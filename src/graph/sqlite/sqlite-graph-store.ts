import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { GraphReader, GraphStore, GraphWriter, WriteOptions } from '../graph-store';
import { ReadCache } from '../read-cache';
import { registerPathKey } from './item-paths';
import { ReadPool } from './read-pool';
import { migrate, SCHEMA_VERSION, schemaVersion } from './schema';
import { SerialQueue } from './serial-queue';
import { SqliteGraphReader } from './sqlite-graph-reader';
import { SqliteGraphWriter } from './sqlite-graph-writer';
import { StatementCache } from './statement-cache';
import { handedOverEntries, searchedPhrases } from './search/ranking-accelerator';
import { RankingCaches } from './search/search-reads';
import {
  buffersOf,
  isSearchWarmupPlan,
  isWarmedSearch,
  SearchWarmupPlan,
  warmSearch,
} from './search/search-warmup';
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
 * Query phrases' matching rows with their scores (ranked-text.ts), kept apart likewise for the
 * accelerated ranking, in rows held of 16 bytes each (`searchCacheMiB`). The item order (each
 * item's place in id order, which ranked hits are tied by, and its type) is kept here too, weighed
 * as rows of its size.
 */
const POSTINGS_ROW_BYTES = 16;
const DEFAULT_SEARCH_CACHE_MIB = 256;

/**
 * What is read per store version before searches ask for it (`readAheadForSearch`, and what an
 * import worker reads before it commits, `searchWarmup`): at most `READ_AHEAD_ROWS` rows, or three
 * quarters of a smaller postings cache (the rest is left to what searches read), since every
 * commit of items has it read again. Terms matching fewer than `READ_AHEAD_MIN_ROWS` rows are
 * quick to read on demand.
 */
const READ_AHEAD_ROWS = 3_000_000;
const READ_AHEAD_SHARE = 3 / 4;
const READ_AHEAD_MIN_ROWS = 1_000;

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
   * version (`RankingAccelerator`), rather than by FTS5's bm25 in SQL: the same hits (default on).
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
  /** The accelerated ranking's caches, when it is on. */
  private readonly ranking?: RankingCaches;
  private closed = false;
  /** The latest version a read has seen, while searches are read ahead for; else undefined. */
  private latestVersion?: number;
  private readingAhead?: Promise<void>;
  /** The version last read ahead for (maybe in part, when a write began meanwhile). */
  private aheadVersion = -Infinity;
  /** Write transactions running in this process: 0 or 1, since writes queue. */
  private writing = 0;
  /** How many postings rows a read-ahead reads at most. */
  private readonly readAheadRows: number;

  private constructor(
    private readonly writer: StatementCache,
    private readonly readers: ReadPool,
    private readonly checkpointer: WalCheckpointer,
    private readonly condition: StoreCondition,
    acceleratedSearch: boolean,
    searchCacheMiB: number,
  ) {
    super();
    const postingsRows = Math.floor((searchCacheMiB * 1024 * 1024) / POSTINGS_ROW_BYTES);
    this.readAheadRows = Math.min(READ_AHEAD_ROWS, Math.floor(postingsRows * READ_AHEAD_SHARE));
    if (acceleratedSearch) this.ranking = { postings: new ReadCache(postingsRows), reading: new Map() };
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
      const store = new SqliteGraphStore(
        writer,
        readers,
        checkpointer,
        condition,
        options.acceleratedSearch ?? true,
        options.searchCacheMiB ?? DEFAULT_SEARCH_CACHE_MIB,
      );
      return store;
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
        this.noticeVersion(version);
        tx = new SqliteGraphReader(connection, {
          version,
          recordsVersion,
          cache: this.cache,
          items: this.itemCache,
          ranking: this.ranking,
        });
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
        if (committed !== undefined) this.noticeVersion(committed);
        // Also for a version a read noticed meanwhile, or one a write interrupted.
        void this.startReadingAhead();
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
        const warmup = options.warmSearch;
        // A write of no items leaves what searches keep valid: nothing to read for them.
        if (warmup && tx.itemsWritten && isSearchWarmupPlan(warmup.plan)) {
          const warmed = await warmSearch(this.writer, warmup.plan, version);
          await warmup.handOver(warmed, buffersOf(warmed));
        }
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
   * From now on, after each version a read sees first, and after each commit here, reads ahead in a
   * read of its own the item order and the commonest terms' postings (`SqliteGraphReader.readAhead`):
   * the first searches after a start or a commit would otherwise read them while every request
   * behind them waits. One read-ahead runs at a time; it waits for this process's writes to end,
   * and leaves off for a newer version. Resolves when the read-ahead it starts is done; nothing
   * without the accelerated ranking.
   */
  readAheadForSearch(): Promise<void> {
    if (!this.ranking) return Promise.resolve();
    this.latestVersion ??= -1;
    return this.startReadingAhead();
  }

  override prepareForSearches(): void {
    void this.readAheadForSearch();
  }

  /**
   * The phrases searched most recently, as many as a read-ahead would read; nothing where this
   * process reads nothing ahead (it answers no searches).
   */
  override searchWarmup(): SearchWarmupPlan | undefined {
    if (!this.ranking || this.latestVersion === undefined) return undefined;
    const phrases: string[] = [];
    let rows = 0;
    for (const [phrase, weight] of searchedPhrases(this.ranking)) {
      if ((rows += weight) > this.readAheadRows) break;
      phrases.push(phrase);
    }
    return { kind: 'sqlite-search', phrases };
  }

  override acceptWarmedSearch(warmed: unknown): void {
    if (this.ranking && isWarmedSearch(warmed)) this.ranking.handedOver = handedOverEntries(warmed);
  }

  override async readAheadDone(): Promise<void> {
    if (this.latestVersion === undefined) return;
    // A read notices the latest version, which starts reading ahead for it.
    await this.read(async () => undefined);
    await this.readingAhead;
  }

  private noticeVersion(version: number): void {
    if (this.latestVersion === undefined || version <= this.latestVersion) return;
    this.latestVersion = version;
    void this.startReadingAhead();
  }

  private startReadingAhead(): Promise<void> {
    if (this.latestVersion === undefined || this.closed || this.writing > 0) return Promise.resolve();
    // Started once this one is recorded as running; taken up again for a version noticed as it ends.
    this.readingAhead ??= Promise.resolve()
      .then(() => this.readAheadToLatest())
      // Reading ahead only spares searches a first read: a store that fails it (damaged pages) is
      // noted for readiness, and searches meet the same error themselves.
      .catch((error: unknown) => this.condition.noteError(error))
      .finally(() => {
        this.readingAhead = undefined;
        if (this.latestVersion! > this.aheadVersion) void this.startReadingAhead();
      });
    return this.readingAhead;
  }

  private async readAheadToLatest(): Promise<void> {
    while (!this.closed && this.writing === 0 && this.latestVersion! > this.aheadVersion) {
      this.aheadVersion = await this.read(async (tx) => {
        const reader = tx as SqliteGraphReader;
        const stale = () => this.closed || this.writing > 0 || this.latestVersion! > reader.version!;
        // A read-ahead that fails leaves searches to read what they need themselves.
        await reader.readAhead(this.readAheadRows, READ_AHEAD_MIN_ROWS, stale).catch(() => undefined);
        // Left off for a write here: taken up again, what it read being kept, once the write ends.
        return this.writing > 0 ? this.aheadVersion : reader.version!;
      }).catch(() => this.latestVersion!);
    }
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
