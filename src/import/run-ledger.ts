import Database from 'better-sqlite3';

export type Status = 'created' | 'updated' | 'unchanged';
export const STATUSES: readonly Status[] = ['created', 'updated', 'unchanged'];

/** What happened to one id, and the source tag (by its index in the run's list) it is listed under. */
export interface LedgerEntry {
  id: string;
  status: Status;
  tagIndex: number;
}

/** The ids of one status listed under one tag: a list of the import log's `*_keys`. */
export interface TagList {
  status: Status;
  tagIndex: number;
  count: number;
}

/** Ids read per query when a list is walked: no statement stays open between them. */
const PAGE = 2000;
/** The scratch file's page cache: what the ledger holds in memory, whatever the number of ids. */
const CACHE_KIB = 4096;

export const LEDGER_SCHEMA = `
  CREATE TABLE result (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    status INTEGER NOT NULL,
    tag INTEGER NOT NULL
  )`;
const SELECT_SOME = `
  SELECT id, status, tag FROM result WHERE id IN (SELECT value FROM json_each(?))`;
const SELECT_ONE = 'SELECT status FROM result WHERE id = ?';
/** Made once the run is done, for the lists by tag: it would only slow the run's appends. */
export const CREATE_LIST_INDEX = 'CREATE INDEX IF NOT EXISTS result_by_list ON result (status, tag, seq)';
const SELECT_TAG_LISTS = 'SELECT status, tag, count(*), min(seq) FROM result GROUP BY status, tag';
const SELECT_TAG_LIST_PAGE = `
  SELECT seq, id FROM result WHERE status = ? AND tag = ? AND seq > ? ORDER BY seq LIMIT ${PAGE}`;
const INSERT = 'INSERT INTO result (id, status, tag) VALUES (?, ?, ?)';
const DELETE = 'DELETE FROM result WHERE id = ?';

function statusCodes(statuses: readonly Status[]): string {
  return statuses.map((status) => STATUSES.indexOf(status)).join(', ');
}

/**
 * A page of the entries with one of `statuses`, in list order, after the `seq` bound to it. Read
 * along the table's own key: `+status` keeps SQLite from the list index, which it would otherwise
 * take once the lists are made, reading and sorting every row of those statuses for each page, a cost
 * that grows as the square of the ids.
 */
export function walkPageSql(statuses: readonly Status[]): string {
  return `SELECT seq, id, status, tag FROM result WHERE seq > ? AND +status IN (${statusCodes(statuses)})
    ORDER BY seq LIMIT ${PAGE}`;
}

/**
 * An import run's result for every id it produced, in the order the log lists them, kept in a
 * scratch SQLite file of the import's workspace rather than in the heap, where a map of them grows with the import, and an import's memory must not grow with the size of its sources. The
 * file is the run's alone and thrown away with the workspace, so it is written without a journal
 * or syncing, in one transaction that is never committed.
 */
export class RunLedger {
  private readonly db: Database.Database;
  private readonly selectSome: Database.Statement;
  private readonly selectOne: Database.Statement;
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;

  private constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${CACHE_KIB}`);
    this.db.exec(LEDGER_SCHEMA);
    this.db.exec('BEGIN');
    this.selectSome = this.db.prepare(SELECT_SOME).raw();
    this.selectOne = this.db.prepare(SELECT_ONE).pluck();
    this.insert = this.db.prepare(INSERT);
    this.remove = this.db.prepare(DELETE);
  }

  static open(file: string): RunLedger {
    return new RunLedger(file);
  }

  /** The entries of those of `ids` that have one. */
  entries(ids: readonly string[]): Map<string, LedgerEntry> {
    const found = new Map<string, LedgerEntry>();
    for (const [id, status, tagIndex] of this.selectSome.all(JSON.stringify(ids)) as [
      string,
      number,
      number,
    ][]) {
      found.set(id, { id, status: STATUSES[status], tagIndex });
    }
    return found;
  }

  /** Lists the id last, whether or not it was listed before. */
  append(entry: LedgerEntry): void {
    this.remove.run(entry.id);
    this.appendNew(entry);
  }

  /** Lists an id the ledger does not hold yet, last. */
  appendNew(entry: LedgerEntry): void {
    this.insert.run(entry.id, STATUSES.indexOf(entry.status), entry.tagIndex);
  }

  has(id: string, statuses: readonly Status[]): boolean {
    const status = this.selectOne.get(id) as number | undefined;
    return status !== undefined && statuses.includes(STATUSES[status]);
  }

  count(statuses: readonly Status[]): number {
    return this.db
      .prepare(`SELECT count(*) FROM result WHERE status IN (${statusCodes(statuses)})`)
      .pluck()
      .get() as number;
  }

  /** The entries with one of `statuses`, in list order, read a page at a time. */
  *walk(statuses: readonly Status[]): Generator<LedgerEntry> {
    const page = this.db.prepare(walkPageSql(statuses)).raw();
    const rows = paged((after) => page.all(after) as [number, string, number, number][]);
    for (const [, id, status, tagIndex] of rows) yield { id, status: STATUSES[status], tagIndex };
  }

  /**
   * The lists of ids by status and tag, each placed where its first id is in list order. For a
   * run that is done: the ledger indexes its ids by list from here on.
   */
  tagLists(): TagList[] {
    this.db.exec(CREATE_LIST_INDEX);
    const rows = this.db.prepare(SELECT_TAG_LISTS).raw().all() as [number, number, number, number][];
    return rows
      .sort((a, b) => a[3] - b[3])
      .map(([status, tagIndex, count]) => ({ status: STATUSES[status], tagIndex, count }));
  }

  /** The ids of one of the `tagLists`, in list order, read a page at a time. */
  *walkTagList({ status, tagIndex }: TagList): Generator<string> {
    const page = this.db.prepare(SELECT_TAG_LIST_PAGE).raw();
    const code = STATUSES.indexOf(status);
    for (const [, id] of paged((after) => page.all(code, tagIndex, after) as [number, string][])) yield id;
  }

  close(): void {
    this.db.close();
  }
}

/** The rows of pages read by `page(after)`, each after the last `seq` (first column) of the one before. */
function* paged<Row extends [number, ...unknown[]]>(page: (after: number) => Row[]): Generator<Row> {
  let after = 0;
  for (;;) {
    const rows = page(after);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1][0];
  }
}
