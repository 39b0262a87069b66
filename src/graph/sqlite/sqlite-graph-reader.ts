import { Props } from '../../items/bundle';
import { ItemEdgeType, ItemType } from '../../items/item-types';
import {
  AccessPointMatch,
  ChildPage,
  GraphReader,
  ItemListQuery,
  ItemRef,
  ListedItem,
  RecordNode,
  RecordQuery,
  SearchQuery,
  SearchResult,
  StoredItem,
  SubtreeEntry,
} from '../graph-store';
import { POSITION_BITS } from './dependent-rows';
import { storedItemOf } from './stored-item-text';
import { Page, PageRequest } from '../graph-search';
import { composedPage } from '../portal-page';
import { recordQuerySql } from './record-sql';
import { AcceleratedSearch } from './search/accelerated/accelerated-search';
import { RankingAccelerator } from './search/accelerated/ranking-accelerator';
import { ReadSnapshot, SearchReads } from './search/search-reads';
import { isFacetedSearch, searchItems, soleTermOf } from './search/sqlite-search';
import { parentIdOf, parentsFirst, pathBelow, pathRange } from './item-paths';
import { listChildren } from './item-children';
import { listItems } from './item-list';
import { CHILD_EDGES, IN_JSON, isWritten, itemExists, SELECT_PATH } from './sql';
import { RowMode, StatementCache } from './statement-cache';

const SELECT_HASHES = `SELECT id, hash FROM item WHERE id ${IN_JSON}`;
const SELECT_TYPES = `SELECT id, type FROM item WHERE id ${IN_JSON}`;
/** Levels followed at most: edges never loop (the writer refuses an item below itself). */
const LONGEST_CHAIN = 100_000;
/** Each item's written ancestors along its first parent edges (the chain its path lists), nearest first. */
const SELECT_CHAINS = `
  WITH RECURSIVE chain (start, id, depth) AS (
    SELECT value, ${parentIdOf('value')}, 1 FROM json_each(?)
    UNION ALL
    SELECT chain.start, ${parentIdOf('chain.id')}, chain.depth + 1
    FROM chain JOIN item ON item.id = chain.id WHERE chain.depth < ${LONGEST_CHAIN})
  SELECT chain.start, chain.id, item.type, chain.depth FROM chain JOIN item ON item.id = chain.id
  ORDER BY chain.start, chain.depth`;
const ITEM_EXISTS = `SELECT ${itemExists('?')}`;

/**
 * Each item among the ids (a JSON list) as the items cache keeps it (`ItemText`), built by SQLite
 * in one statement: its row's values, its dependents in rid order (one range of the table's key),
 * its edges to written nodes in order. The props columns are JSON already and go in as they are.
 */
const SELECT_ITEM_TEXTS = `
  SELECT i.id, '[' || json_quote(i.id) || ',' || json_quote(i.type) || ',' || i.props || ','
    || json_quote(i.hash) || ',' || json_quote(i.updated) || ',['
    || coalesce((
      SELECT group_concat(
        '[' || d.rid || ',' || json_quote(d.id) || ',' || json_quote(d.type) || ','
          || json_quote(d.parent) || ',' || json_quote(d.relation) || ',' || d.props || ']',
        ',' ORDER BY d.rid)
      FROM dependent d
      WHERE d.rid >= i.rid << ${POSITION_BITS} AND d.rid < (i.rid + 1) << ${POSITION_BITS}), '')
    || '],['
    || coalesce((
      SELECT group_concat('[' || json_quote(e.type) || ',' || json_quote(e.dst) || ']', ',' ORDER BY e.type, e.dst)
      FROM edge e WHERE e.src = i.id AND ${isWritten('e.dst')}), '')
    || ']]'
  FROM item i WHERE i.id ${IN_JSON}`;

/** Each written item among the ids (a JSON list) with its number of children. */
const COUNT_CHILDREN = `
  SELECT asked.value, (SELECT count(*) FROM edge WHERE dst = asked.value AND type IN (${CHILD_EDGES}))
  FROM json_each(?) AS asked WHERE ${itemExists('asked.value')}`;

/** Every item below `@scope` with the parent it was reached from. */
const SELECT_BELOW = `
  WITH RECURSIVE below(id, parent) AS (
    SELECT src, dst FROM edge
    WHERE dst = @scope AND type IN (${CHILD_EDGES}) AND ${itemExists('@scope')}
    UNION
    SELECT e.src, e.dst FROM below b JOIN edge e ON e.dst = b.id AND e.type IN (${CHILD_EDGES})
  )
  SELECT b.id, b.parent AS parentId, n.type, coalesce(json_extract(n.props, '$.identifier'), '') AS localId
  FROM below b JOIN item n ON n.id = b.id`;

/** Access points by name whose items lie in a path range. */
const SELECT_ACCESS_POINTS = `
  SELECT ap.id, item.id AS owner, ap.name, json_extract(ap.props, '$.type') AS type
  FROM dependent ap JOIN item ON item.rid = ap.rid >> ${POSITION_BITS}
  WHERE ap.name ${IN_JSON} AND item.path >= ? AND item.path < ?`;

const SELECT_INCOMING = `
  SELECT src FROM edge WHERE dst = @target AND type = @type AND ${isWritten('@target')} ORDER BY src`;
const SELECT_RECORD = 'SELECT id, type, props FROM record WHERE id = ?';

interface RecordRow {
  id: string;
  type: string;
  props: string;
}

export type { ReadSnapshot } from './search/search-reads';

/**
 * The queries of the port on one connection: a read-only connection inside a read transaction, or
 * the writer's connection (so that a write sees its own uncommitted changes). Usable until `end()`.
 */
export class SqliteGraphReader implements GraphReader {
  private ended = false;
  /** What searches read through (search/): this reader's connection and caches. */
  private readonly reads: SearchReads;
  /** In a read transaction with the accelerated search on (`SEARCH_ACCELERATED`). */
  private readonly accelerator?: RankingAccelerator;

  /**
   * `snapshot`: the store version a read transaction sees, and the caches for that version: `cache`
   * for query results, `items` for what is kept per item, so that items read in passing never push
   * out results that cost more to redo. `engine`: the accelerated search, in a read transaction
   * when it is on.
   */
  constructor(
    private readonly connection: StatementCache,
    private readonly snapshot?: ReadSnapshot,
    private readonly engine?: AcceleratedSearch,
  ) {
    this.reads = {
      snapshot,
      statement: (sql, mode) => this.statement(sql, mode),
      cached: (key, compute, weigh) => this.cached(key, compute, weigh),
      cachedEach: (prefix, ids, read, weigh) => this.cachedEach(prefix, ids, read, weigh),
      exists: (itemId) => this.exists(itemId),
      pathRangeBelow: (scopeId) => this.pathRangeBelow(scopeId),
    };
    if (snapshot && engine) this.accelerator = engine.acceleratorFor({ ...this.reads, snapshot });
  }

  get version(): number | undefined {
    return this.snapshot?.version;
  }

  /** Called when the transaction ends: the handle must not outlive it. */
  end(): void {
    this.ended = true;
  }

  protected statement(sql: string, mode?: RowMode) {
    if (this.ended) throw new Error('The transaction has ended; use the handle only inside its work');
    return this.connection.get(sql, mode);
  }

  async getItems(ids: readonly string[]): Promise<Map<string, StoredItem>> {
    return this.storedItems(ids);
  }

  /**
   * `getItems` without the promise, for code that runs inside a synchronous step (migrations). In a
   * read transaction, each item's rows are kept per store version as one JSON text (`ItemText`);
   * its bundle is parsed afresh from it for every caller.
   */
  storedItems(ids: readonly string[]): Map<string, StoredItem> {
    const items = new Map<string, StoredItem>();
    for (const [id, text] of this.cachedEach(
      'item',
      ids,
      (missing) => this.readItemTexts(missing),
      (text) => 1 + Math.ceil((text?.length ?? 0) / CHARACTERS_PER_WEIGHT),
    )) {
      if (text !== null) items.set(id, storedItemOf(text));
    }
    return items;
  }

  /** The items among `ids` as the items cache keeps them (`ItemText`); null for those that do not exist. */
  private readItemTexts(ids: readonly string[]): Map<string, string | null> {
    const texts = new Map<string, string | null>(ids.map((id) => [id, null]));
    for (const [id, text] of this.statement(SELECT_ITEM_TEXTS, 'raw').all(JSON.stringify(ids)) as [
      string,
      string,
    ][]) {
      texts.set(id, text);
    }
    return texts;
  }

  async getHashes(ids: readonly string[]): Promise<Map<string, string>> {
    return this.pairs<string>(SELECT_HASHES, ids);
  }

  async getTypes(ids: readonly string[]): Promise<Map<string, ItemType>> {
    return this.pairs<ItemType>(SELECT_TYPES, ids);
  }

  /**
   * Along the first parent edges (the chain each item's stored path lists, item-paths.ts): one
   * query whatever the depth, kept per item and store version in a read transaction. A chain ends
   * below an ancestor that is not written.
   */
  async ancestors(ids: readonly string[]): Promise<Map<string, ItemRef[]>> {
    const chains = this.cachedEach(
      'ancestors',
      ids,
      (missing) => this.chainsAbove(missing),
      (chain) => 1 + chain.length,
    );
    // Cached chains are shared: callers get their own copies.
    return new Map([...chains].map(([id, chain]) => [id, chain.map((ref) => ({ ...ref }))]));
  }

  private chainsAbove(ids: readonly string[]): Map<string, ItemRef[]> {
    const chains = new Map<string, ItemRef[]>(ids.map((id) => [id, []]));
    const rows = this.statement(SELECT_CHAINS, 'raw').all(JSON.stringify(ids)) as [
      string,
      string,
      ItemType,
      number,
    ][];
    for (const [start, id, type, depth] of rows) {
      const chain = chains.get(start)!;
      // Past an ancestor that is not written, the rest is not the item's chain.
      if (chain.length === depth - 1) chain.push({ id, type });
    }
    return chains;
  }

  async countChildren(ids: readonly string[]): Promise<Map<string, number>> {
    // One statement for a page of items, not one per item: their counts are read together.
    return this.cachedEach(
      'children',
      ids,
      (missing) => this.childCounts(missing),
      () => 1,
    );
  }

  /** The counts of `ids`' children; 0 for an item that is not written. */
  private childCounts(ids: readonly string[]): Map<string, number> {
    const counts = this.pairs<number>(COUNT_CHILDREN, ids);
    return new Map(ids.map((id) => [id, counts.get(id) ?? 0]));
  }

  async subtree(rootId: string): Promise<SubtreeEntry[]> {
    const rows = this.statement(SELECT_BELOW).all({ scope: rootId }) as SubtreeEntry[];
    return parentsFirst(rootId, rows);
  }

  async children(parentIds: readonly string[], page: ChildPage): Promise<Map<string, SubtreeEntry[]>> {
    return listChildren(this.reads, parentIds, page);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    // A store that answers searches reads ahead for them from now on.
    if (this.snapshot && this.engine) this.engine.searched(this.snapshot.version);
    // Countries and holders are read from paths, which a write may not have worked out yet.
    if (isFacetedSearch(query, this.accelerator)) this.placeItems();
    return searchItems(this.reads, query, this.accelerator);
  }

  /** Its finer reads, each answered from memory or a cache, as the portal made them before. */
  readPage(request: PageRequest): Promise<Page> {
    return composedPage(this, request);
  }

  /**
   * Reads ahead, for the searches that would read them first, what the accelerated search keeps
   * (`RankingAccelerator.readAhead`); nothing without it. Returns the phrases it read.
   */
  async readAhead(maxRows: number, minRows: number, stale: () => boolean): Promise<string[]> {
    if (!this.accelerator) return [];
    return this.accelerator.readAhead(maxRows, minRows, soleTermOf(this.reads), stale);
  }

  async findAccessPoints(scopeId: string, names: readonly string[]): Promise<AccessPointMatch[]> {
    if (names.length === 0 || !this.exists(scopeId)) return [];
    const { from, to } = this.pathRangeBelow(scopeId);
    const rows = this.statement(SELECT_ACCESS_POINTS).all(
      JSON.stringify(names),
      from,
      to,
    ) as AccessPointRow[];
    return rows.map((row) => ({
      accessPointId: row.id,
      itemId: row.owner,
      name: row.name,
      type: String(row.type ?? ''),
    }));
  }

  async incoming(targetId: string, type: ItemEdgeType): Promise<string[]> {
    return this.statement(SELECT_INCOMING, 'pluck').all({ target: targetId, type }) as string[];
  }

  async listItems(query: ItemListQuery): Promise<ListedItem[]> {
    return listItems(this.reads, query);
  }

  async getRecord(id: string): Promise<RecordNode | undefined> {
    const row = this.statement(SELECT_RECORD).get(id) as RecordRow | undefined;
    return row && toRecord(row);
  }

  /**
   * Cached per store version (`recordsVersion`): every request looks its bearer token up here, and
   * a revocation is a write, which a read at the next version sees.
   */
  async findRecords(query: RecordQuery): Promise<{ total: number; records: RecordNode[] }> {
    const read = () => {
      const sql = recordQuerySql(query);
      const total = this.statement(sql.count, 'pluck').get(...sql.params) as number;
      const rows = this.statement(sql.page).all(...sql.pageParams) as RecordRow[];
      return { total, records: rows.map(toRecord) };
    };
    const found = this.snapshot
      ? this.snapshot.cache.get(
          this.snapshot.recordsVersion,
          `records\0${JSON.stringify(query)}`,
          read,
          (value) => 1 + value.records.length,
        )
      : read();
    // Cached records are shared: callers get their own copies.
    return {
      total: found.total,
      records: found.records.map((record) => ({ ...record, props: { ...record.props } })),
    };
  }

  /**
   * A value per id, each kept on its own in the cache (weighing what `weigh` says), so that a
   * batch reads only the ids not kept yet, in one call of `read`, which answers for each.
   */
  private cachedEach<T>(
    prefix: string,
    ids: readonly string[],
    read: (ids: readonly string[]) => Map<string, T>,
    weigh: (value: T) => number,
  ): Map<string, T> {
    const unique = [...new Set(ids)];
    if (!this.snapshot) return unique.length === 0 ? new Map() : read(unique);
    const { items: cache, version } = this.snapshot;
    const values = new Map<string, T>();
    const missing: string[] = [];
    for (const id of unique) {
      const found = cache.lookup<T>(version, `${prefix}\0${id}`);
      if (found) values.set(id, found.value);
      else missing.push(id);
    }
    if (missing.length === 0) return values;
    const fresh = read(missing);
    for (const id of missing) {
      const value = fresh.get(id) as T;
      values.set(id, value);
      cache.put(version, `${prefix}\0${id}`, value, weigh(value));
    }
    // In the order asked for.
    return new Map(unique.map((id) => [id, values.get(id) as T]));
  }

  /** Cached across read transactions of one store version; a write's reads are never cached. */
  private cached<T>(key: string, compute: () => T, weigh?: (value: T) => number): T {
    return this.snapshot ? this.snapshot.cache.get(this.snapshot.version, key, compute, weigh) : compute();
  }

  /**
   * Makes every item's stored path current before a query reads paths: a write transaction may
   * leave working them out until then (item-placement.ts).
   */
  protected placeItems(): void {}

  private exists(itemId: string): boolean {
    return this.statement(ITEM_EXISTS, 'pluck').get(itemId) === 1;
  }

  private pathRangeBelow(scopeId: string): { from: string; to: string } {
    this.placeItems();
    const scopePath = this.statement(SELECT_PATH, 'pluck').get(scopeId) as string | null | undefined;
    return pathRange(pathBelow(scopePath ?? '', scopeId));
  }

  private pairs<T>(sql: string, ids: readonly string[]): Map<string, T> {
    if (ids.length === 0) return new Map();
    return new Map(this.statement(sql, 'raw').all(JSON.stringify(ids)) as [string, T][]);
  }
}

/** Text held weighs as a cached search hit does per this many characters. */
const CHARACTERS_PER_WEIGHT = 200;

interface AccessPointRow {
  id: string;
  owner: string;
  name: string;
  type: unknown;
}

function toRecord(row: RecordRow): RecordNode {
  return { id: row.id, type: row.type, props: JSON.parse(row.props) as Props };
}
