import { ReadCache } from '../../../read-cache';
import { StatementCache } from '../../statement-cache';
import { ReadSnapshot, SearchReads } from '../search-reads';
import { RankingCaches, searchedPhrases } from './postings-reads';
import { RankingAccelerator } from './ranking-accelerator';
import { handedOverEntries, WarmedSearch, warmSearch, WarmupPlan } from './search-warmup';
import { WarmupChannel } from './warmup-channel';

/**
 * Query phrases' matching rows with their scores (ranked-text.ts) are kept for the accelerated
 * ranking in rows held of 16 bytes each (`SEARCH_CACHE_MB`). The item order (each item's place in
 * id order, which ranked hits are tied by, and its type) is kept there too, weighed as rows of its
 * size.
 */
const POSTINGS_ROW_BYTES = 16;
export const DEFAULT_SEARCH_CACHE_MIB = 256;

/**
 * What is read per store version before searches ask for it (by the store itself after each
 * version it sees, and by a writer elsewhere before it commits): at most `READ_AHEAD_ROWS` rows, or
 * three quarters of a smaller postings cache (the rest is left to what searches read), since every
 * commit of items has it read again. Terms matching fewer than `READ_AHEAD_MIN_ROWS` rows are
 * quick to read on demand.
 */
const READ_AHEAD_ROWS = 3_000_000;
const READ_AHEAD_SHARE = 3 / 4;
const READ_AHEAD_MIN_ROWS = 1_000;

/** A read transaction of the store, as reading ahead uses it (`SqliteGraphReader`). */
export interface AheadReader {
  readonly version?: number;
  /** Reads ahead what searches read first (`RankingAccelerator.readAhead`); the phrases it read. */
  readAhead(maxRows: number, minRows: number, stale: () => boolean): Promise<string[]>;
}

/** What the engine needs of the store it serves. */
export interface SearchingStore {
  read<T>(work: (reader: AheadReader) => Promise<T>): Promise<T>;
  /** Whether a write of this store is running: reading ahead leaves off for it. */
  writing(): boolean;
  /** A failure reading ahead, noted for the store's readiness. */
  noteError(error: unknown): void;
}

/**
 * The accelerated search of the SQLite adapter: the one seam between the store and what exists
 * only for speed. Read transactions rank text through its `RankingAccelerator` and caches; once
 * the store has answered a search, it reads ahead what searches read first for every version the
 * store sees (its own commits and other connections'), and takes what a writer of another thread
 * (the import worker's store) read for it before committing (`WarmupChannel`). A store without it
 * (`SEARCH_ACCELERATED=false`) searches by the plain SQL, with the same hits.
 */
export class AcceleratedSearch {
  private readonly caches: RankingCaches;
  /** How many postings rows a read-ahead reads at most. */
  private readonly readAheadRows: number;
  private readonly channel: WarmupChannel;
  /** The latest version a read has seen, once this store answers searches; else undefined. */
  private latestVersion?: number;
  private readingAhead?: Promise<void>;
  /** The version last read ahead for (maybe in part, when a write began meanwhile). */
  private aheadVersion = -Infinity;
  private closed = false;

  constructor(
    private readonly store: SearchingStore,
    file: string,
    cacheMiB: number,
  ) {
    const postingsRows = Math.floor((cacheMiB * 1024 * 1024) / POSTINGS_ROW_BYTES);
    this.readAheadRows = Math.min(READ_AHEAD_ROWS, Math.floor(postingsRows * READ_AHEAD_SHARE));
    this.caches = { postings: new ReadCache(postingsRows), reading: new Map() };
    this.channel = new WarmupChannel(file, {
      plan: () => this.plan(),
      accept: (warmed) => this.accept(warmed),
    });
  }

  /** The accelerator of one read transaction. */
  acceleratorFor(reads: SearchReads & { readonly snapshot: ReadSnapshot }): RankingAccelerator {
    return new RankingAccelerator(reads, this.caches);
  }

  /**
   * Told by a read transaction at `version` that answers a search: a store that answers searches
   * reads ahead for them from now on (an import worker's or a command line's never does).
   */
  searched(version: number): void {
    this.serve();
    this.noticeVersion(version);
  }

  /**
   * Reads ahead as once a search was answered; resolves when the read-ahead it starts is done.
   * What the store does by itself, made callable for tests.
   */
  readAheadNow(): Promise<void> {
    this.serve();
    return this.startReadingAhead();
  }

  /**
   * Resolves once what is read ahead for the latest committed version, which `readLatest` makes
   * the store see, is read; at once where the store answers no searches.
   */
  async readAheadDone(readLatest: () => Promise<void>): Promise<void> {
    if (this.latestVersion === undefined) return;
    await readLatest();
    await this.readingAhead;
  }

  /** A version a read saw, or a commit of this store made. */
  noticeVersion(version: number): void {
    if (this.latestVersion === undefined || version <= this.latestVersion) return;
    this.latestVersion = version;
    void this.startReadingAhead();
  }

  /** A write of this store ended: reading ahead takes up again (a version noticed meanwhile). */
  writeEnded(): void {
    void this.startReadingAhead();
  }

  /**
   * Inside a write that wrote items, before it commits `version`: reads, through the writer's
   * connection, what the searches of this store and of the stores that answer searches in other
   * threads would read first, and hands it to them; resolves once they keep it.
   */
  async beforeCommit(writer: StatementCache, version: number): Promise<void> {
    const own = this.plan();
    if (own !== undefined) this.accept(await warmSearch(writer, own, version));
    await this.channel.warmOthers((plan) => warmSearch(writer, plan, version));
  }

  close(): void {
    this.closed = true;
    this.channel.close();
  }

  private serve(): void {
    if (this.latestVersion !== undefined) return;
    this.latestVersion = -1;
    this.channel.serve();
  }

  /** The phrases searched most recently, as many as a read-ahead would read; none unless serving. */
  private plan(): WarmupPlan | undefined {
    if (this.latestVersion === undefined) return undefined;
    const phrases: string[] = [];
    let rows = 0;
    for (const [phrase, weight] of searchedPhrases(this.caches)) {
      if ((rows += weight) > this.readAheadRows) break;
      phrases.push(phrase);
    }
    return { phrases };
  }

  private accept(warmed: WarmedSearch): void {
    this.caches.handedOver = handedOverEntries(warmed);
  }

  private startReadingAhead(): Promise<void> {
    if (this.latestVersion === undefined || this.closed || this.store.writing()) return Promise.resolve();
    // Started once this one is recorded as running; taken up again for a version noticed as it ends.
    this.readingAhead ??= Promise.resolve()
      .then(() => this.readAheadToLatest())
      // Reading ahead only spares searches a first read: a store that fails it (damaged pages) is
      // noted for readiness, and searches meet the same error themselves.
      .catch((error: unknown) => this.store.noteError(error))
      .finally(() => {
        this.readingAhead = undefined;
        if (this.latestVersion! > this.aheadVersion) void this.startReadingAhead();
      });
    return this.readingAhead;
  }

  private async readAheadToLatest(): Promise<void> {
    while (!this.closed && !this.store.writing() && this.latestVersion! > this.aheadVersion) {
      this.aheadVersion = await this.store
        .read(async (reader) => {
          const stale = () => this.closed || this.store.writing() || this.latestVersion! > reader.version!;
          // A read-ahead that fails leaves searches to read what they need themselves.
          await reader.readAhead(this.readAheadRows, READ_AHEAD_MIN_ROWS, stale).catch(() => undefined);
          // Left off for a write here: taken up again, what it read being kept, once the write ends.
          return this.store.writing() ? this.aheadVersion : reader.version!;
        })
        .catch(() => this.latestVersion!);
    }
  }
}
