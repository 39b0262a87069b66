import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { Bundle, Props } from '../../items/bundle';
import { ItemEdgeType, ItemType, ITEM_TYPES } from '../../items/item-types';
import {
  AccessPointMatch,
  GraphReader,
  ItemRef,
  RecordNode,
  RecordQuery,
  SearchQuery,
  SearchResult,
  StoredItem,
  SubtreeEntry,
} from '../graph-store';
import { attachDependents, DependentNode, POSITION_BITS } from './dependent-rows';
import { FacetedHit, facetedResult, facetedSearchSql, needsFacetedSearch } from './faceted-search';
import { recordQuerySql } from './record-sql';
import { SCORE, searchSql, SearchSql, Subtree } from './search-sql';
import { firstInOrder, Leaders, leaders, matchAll, Postings, postingsOf } from './ranked-text';
import {
  ridOfTextRow,
  textRowOfCode,
  textRowRange,
  typeBit,
  typeBitOfTextRow,
  typeCode,
  typeCodeBits,
  typeCodes,
} from './text-rows';
import { parentIdOf, pathBelow, pathRange } from './item-paths';
import { ftsPhrases, SoleTerm, termRange } from './fts-query';
import { SELECT_TERM_COUNTS, SELECT_TERM_FROM } from './term-index';
import { ReadCache } from '../read-cache';
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

/** The lowest and highest rid below a path prefix. */
const SELECT_RID_SPAN = 'SELECT min(rid) AS first, max(rid) AS last FROM item WHERE path >= ? AND path < ?';

/**
 * From this offset on, a scoped page without text is cut from the whole ordered list, kept in the
 * cache.
 */
const DEEP_OFFSET = 1000;
/**
 * A text search ranks its matches once for its first pages (readers seldom go further), kept in
 * the cache: the pages within them are cut from it, and a search with fewer matches has its total.
 */
const TOP_HITS = 100;
/** Index terms are lower-case ASCII letters and digits, as query words are (fts-query.ts). */
const ASCII_TERM = /^[a-z0-9]+$/;

/**
 * Index rows read between turns of the event loop when a phrase's postings or the item order are
 * read: a few milliseconds' work.
 */
const ROWS_PER_TURN = 4096;
/** A phrase's matching full-text rows, with what the phrase alone scores for them (ranked-text.ts). */
const SELECT_POSTINGS = `SELECT rowid, ${SCORE} FROM item_text WHERE item_text MATCH ? ORDER BY rowid`;
/** Along the id index: SQLite's own collation, the one the search SQL breaks ties by. */
const SELECT_ITEMS_BY_ID = 'SELECT rid, type FROM item ORDER BY id';
/** Along the update index: the most recently updated first, ties by id. */
const SELECT_RIDS_BY_UPDATE = 'SELECT rid FROM item ORDER BY updated DESC, id';
const UPDATED_ORDER = 'updated order';
const SELECT_LAST_RID = 'SELECT coalesce(max(rid), 0) FROM item';
/** The postings cache's key of the item order: phrases are quoted (fts-query.ts), this is not. */
const ITEM_ORDER = 'item order';
/**
 * The postings cache weighs by postings' rows, of 16 bytes; the item order holds 9 bytes a rid (its
 * place in the order of rids, its position, its type code).
 */
const RIDS_PER_POSTINGS_ROW = 2;
/** Along the path index alone: the items' types come from the item order. */
const SELECT_SUBTREE_RIDS = 'SELECT rid FROM item WHERE path >= ? AND path < ?';
/** Along the edge and id indexes alone, likewise. */
const SELECT_CHILD_RIDS = `
  SELECT DISTINCT n.rid FROM edge e JOIN item n ON n.id = e.src
  WHERE e.dst = ? AND e.type IN (${CHILD_EDGES})`;
const SELECT_REFS_BY_RID = 'SELECT rid, id, type FROM item WHERE rid IN (SELECT value FROM json_each(?))';

const SELECT_INCOMING = `
  SELECT src FROM edge WHERE dst = @target AND type = @type AND ${isWritten('@target')} ORDER BY src`;
const SELECT_RECORD = 'SELECT id, type, props FROM record WHERE id = ?';

interface RecordRow {
  id: string;
  type: string;
  props: string;
}

export interface ReadSnapshot {
  version: number;
  cache: ReadCache;
  items: ReadCache;
  postings: ReadCache;
  /**
   * Values of `postings` being read from the index, by version and key (shared by the store's
   * readers).
   */
  reading: Map<string, Promise<unknown>>;
}

/** The items of a store version by rid, read once along the id index (`readItemOrder`). */
interface ItemOrder {
  /** The items' rids in id order. */
  rids: Int32Array;
  /** Each item's position in id order, which ranked hits are tied by; -1 where no item has the rid. */
  positions: Int32Array;
  /** Each item's type code (text-rows.ts). */
  typeCodes: Uint8Array;
}

/**
 * A text search's ranking: its total and the rids of its first hits. A page's ids are looked up
 * when it is asked for: most searches are read for their first page only.
 */
interface RankedText {
  total: number;
  top: number[];
}

/**
 * The queries of the port on one connection: a read-only connection inside a read transaction, or
 * the writer's connection (so that a write sees its own uncommitted changes). Usable until `end()`.
 */
export class SqliteGraphReader implements GraphReader {
  private ended = false;

  /**
   * `snapshot`: the store version a read transaction sees, and the caches for that version: `cache`
   * for query results, `items` for what is kept per item (cheap to read again, and many), so that
   * items read in passing never push out rankings that cost milliseconds to redo, and `postings`
   * for query phrases' matches (ranked-text.ts), which weigh by their rows, and for the items' id
   * order, which breaks ranked hits' ties.
   */
  constructor(
    private readonly connection: StatementCache,
    private readonly snapshot?: ReadSnapshot,
  ) {}

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

  async search(query: SearchQuery): Promise<SearchResult> {
    if (query.scope && !this.exists(query.scope.id)) return { total: 0, hits: [] };
    const subtree = query.scope?.depth === 'descendants' ? this.subtreeOf(query.scope.id) : undefined;
    // A write's reads have no update order kept: they list by update time in SQL.
    if (needsFacetedSearch(query) || (query.order?.key === 'updated' && !this.snapshot)) {
      return this.facetedSearch(query, subtree);
    }
    const soleTerm = this.snapshot && this.soleTerm;
    const sql = searchSql(query, subtree, soleTerm);
    const key = `${sql.page}\0${JSON.stringify(sql.params)}`;
    const end = query.offset + query.limit;
    // In a read transaction, a text search is ranked once from its phrases' matches (kept per
    // store version): its total and top hits are kept, and pages within those are cut from them.
    // (A write's reads rank page by page in SQL.)
    const ranked =
      sql.all === undefined && this.snapshot
        ? await this.rankedText(key, query, subtree, soleTerm)
        : undefined;
    // Without text or scope, the hits are the items of the types asked for, in id order or the
    // most recently updated first.
    const listed =
      sql.all !== undefined && !query.scope && this.snapshot
        ? query.order?.key === 'updated'
          ? this.ridsOfTypes(query.types, await this.itemOrder(), await this.updatedOrder(), 'updated')
          : this.ridsOfTypes(query.types, await this.itemOrder())
        : undefined;
    const sqlPage = () =>
      this.cached(`${key}\0${query.offset}\0${query.limit}`, () => this.page(sql, query.offset, query.limit));
    // A first page that is not full holds every hit: no count is needed (most units' children).
    const firstPage =
      ranked === undefined && listed === undefined && query.offset === 0 ? sqlPage() : undefined;
    const total =
      ranked?.total ??
      listed?.length ??
      (firstPage !== undefined && firstPage.length < query.limit ? firstPage.length : undefined) ??
      this.cached(key, () => this.statement(sql.count, 'pluck').get(sql.params) as number);
    if (total <= query.offset) return { total, hits: [] };
    let hits: ItemRef[];
    if (ranked !== undefined && end <= TOP_HITS) {
      hits = this.refsOfRids(ranked.top.slice(query.offset, end));
    } else if (listed !== undefined) {
      hits = this.refsOfRids(Array.from(listed.subarray(query.offset, end)));
    } else if (sql.all !== undefined && query.offset >= DEEP_OFFSET) {
      const all = sql.all;
      const everything = this.cached(`${key}\0all`, () => this.statement(all).all(sql.params) as ItemRef[]);
      hits = everything.slice(query.offset, end);
    } else {
      hits = firstPage ?? sqlPage();
    }
    // Cached hits are shared: callers get their own copies.
    return { total, hits: hits.map((hit) => ({ id: hit.id, type: hit.type })) };
  }

  /**
   * A text search's total and its first `TOP_HITS` hits, kept per store version: ranked from its
   * phrases' postings and the item order, which are read first, one after the other (they share
   * this connection).
   */
  private async rankedText(
    key: string,
    query: SearchQuery,
    subtree: Subtree | undefined,
    soleTerm: SoleTerm | undefined,
  ): Promise<RankedText> {
    const { cache, version } = this.snapshot!;
    const rankedKey = `${key}\0ranked`;
    const kept = cache.lookup<RankedText>(version, rankedKey);
    if (kept) return kept.value;
    const phrases: Postings[] = [];
    for (const phrase of ftsPhrases(query.text, soleTerm) ?? []) phrases.push(await this.postings(phrase));
    const order = await this.itemOrder();
    return cache.get(
      version,
      rankedKey,
      () => this.rankText(query, phrases, subtree, order),
      (value) => 1 + value.top.length,
    );
  }

  /**
   * A text search's total and its first `TOP_HITS` hits, from its phrases' postings, ties in the
   * id order (`readItemOrder`).
   */
  private rankText(
    query: SearchQuery,
    phrases: readonly Postings[],
    subtree: Subtree | undefined,
    order: ItemOrder,
  ): RankedText {
    const kept = query.types?.length ? typeCodeBits(typeCodes(query.types)) : undefined;
    // Rows of other types are left out, unless a phrase has none: nothing it matches has one then.
    const filtered = kept !== undefined && !phrases.some((phrase) => (phrase.types & ~kept) === 0);
    const matches = matchAll(phrases, {
      within: query.scope && this.scopeRows(query.scope, subtree, order),
      keep: filtered ? (row) => (typeBitOfTextRow(row) & kept) !== 0 : undefined,
    });
    return { total: matches.rows.length, top: this.inRankOrder(leaders(matches, TOP_HITS), order.positions) };
  }

  /**
   * The rids of the first `TOP_HITS` ranked rows' items, by rank and then id (`order`), as the
   * search SQL orders them.
   */
  private inRankOrder(ranked: Leaders, order: Int32Array): number[] {
    // A rid past the order's end has no item either.
    return firstInOrder(ranked, (row) => order[ridOfTextRow(row)] ?? -1, TOP_HITS).map(ridOfTextRow);
  }

  /** The items with these rids, in their order; kept per store version, one by one. */
  private refsOfRids(rids: readonly number[]): ItemRef[] {
    const refs = this.cachedEach(
      'ref',
      rids.map(String),
      (missing) => this.readRefs(missing),
      () => 1,
    );
    return rids.map((rid) => {
      const ref = refs.get(String(rid));
      // The item order was read at this store version: it places only items this snapshot holds.
      if (ref === undefined) throw new Error(`The item order places rid ${rid}, which no item has`);
      return ref;
    });
  }

  /** The items with these rids (as strings), by rid. */
  private readRefs(rids: readonly string[]): Map<string, ItemRef> {
    const rows = this.statement(SELECT_REFS_BY_RID, 'raw').all(JSON.stringify(rids.map(Number)));
    return new Map(
      (rows as [number, string, ItemType][]).map(([rid, id, type]) => [String(rid), { id, type }]),
    );
  }

  /**
   * Reads into the postings cache, before the searches that would read them first, the item order
   * (`readItemOrder`) and the postings of the index's commonest terms, each as a search for the
   * term asks for it (`ftsPhrases`): commonest first, those matching at least `minRows` rows (a
   * rarer term's first read is quick), while their rows stay within `maxRows`. Stops early once
   * `stale()` says so. Returns the phrases it read (or found kept).
   */
  async readAhead(maxRows: number, minRows: number, stale: () => boolean): Promise<string[]> {
    await this.itemOrder();
    const common: [string, number][] = [];
    let listed = 0;
    for (const [term, rows] of this.statement(SELECT_TERM_COUNTS, 'raw').iterate() as Iterable<
      [string, number]
    >) {
      if (rows >= minRows) common.push([term, rows]);
      if (++listed % ROWS_PER_TURN === 0) await setImmediatePromise();
    }
    common.sort((a, b) => b[1] - a[1]);
    const read: string[] = [];
    let rows = 0;
    for (const [term, count] of common) {
      if (stale()) break;
      const phrase = ftsPhrases(term, this.soleTerm)?.[0];
      if (phrase === undefined || rows + count > maxRows) continue;
      rows += count;
      await this.postings(phrase);
      read.push(phrase);
    }
    return read;
  }

  /** A phrase's postings, kept per store version and weighed by their rows. */
  private postings(phrase: string): Postings | Promise<Postings> {
    return this.readOnce(
      phrase,
      () => this.readPostings(phrase),
      (postings) => 1 + postings.rows.length,
    );
  }

  /**
   * The items' rids, the most recently updated first, ties by id, kept per store version: read
   * along its index, as the item order is.
   */
  private updatedOrder(): Int32Array | Promise<Int32Array> {
    return this.readOnce(
      UPDATED_ORDER,
      async () => {
        const rids: number[] = [];
        for (const rid of this.statement(SELECT_RIDS_BY_UPDATE, 'pluck').iterate() as Iterable<number>) {
          if (rids.push(rid) % ROWS_PER_TURN === 0) await setImmediatePromise();
        }
        return Int32Array.from(rids);
      },
      (rids) => 1 + Math.ceil(rids.length / RIDS_PER_POSTINGS_ROW),
    );
  }

  /**
   * A search the ranked and listed paths do not serve (faceted-search.ts): every hit in order, kept
   * per store version, pages and counts cut from them.
   */
  private facetedSearch(query: SearchQuery, subtree: Subtree | undefined): SearchResult {
    // Countries and holders are read from paths, which a write may not have worked out yet.
    this.placeItems();
    const sql = facetedSearchSql(query, subtree);
    if (sql === undefined) return facetedResult([], query);
    const hits = this.cached(
      `faceted\0${sql.sql}\0${JSON.stringify(sql.params)}`,
      () => this.statement(sql.sql).all(sql.params) as FacetedHit[],
      (rows) => 1 + Math.ceil(rows.length / 8),
    );
    return facetedResult(hits, query);
  }

  /** Each item's position in id order and type, by rid (`readItemOrder`), kept per store version. */
  private itemOrder(): ItemOrder | Promise<ItemOrder> {
    return this.readOnce(
      ITEM_ORDER,
      () => this.readItemOrder(),
      (order) => 1 + Math.ceil(order.positions.length / RIDS_PER_POSTINGS_ROW),
    );
  }

  /**
   * A value of the postings cache, kept per store version and weighed by `weigh`. Reads of the same
   * key at the same version share one read of the index.
   */
  private readOnce<T>(key: string, read: () => Promise<T>, weigh: (value: T) => number): T | Promise<T> {
    const { postings: cache, version, reading } = this.snapshot!;
    const kept = cache.lookup<T>(version, key);
    if (kept) return kept.value;
    const readingKey = `${version}\0${key}`;
    let pending = reading.get(readingKey) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = read()
        .then((value) => {
          cache.put(version, key, value, weigh(value));
          return value;
        })
        .finally(() => reading.delete(readingKey));
      reading.set(readingKey, pending);
    }
    return pending;
  }

  /**
   * A phrase's matches from the index, a turn of the event loop after every `ROWS_PER_TURN`: a
   * common word's run tens of milliseconds, which other requests would otherwise wait out.
   */
  private async readPostings(phrase: string): Promise<Postings> {
    const pairs: [number, number][] = [];
    for (const pair of this.statement(SELECT_POSTINGS, 'raw').iterate(phrase) as Iterable<[number, number]>) {
      if (pairs.push(pair) % ROWS_PER_TURN === 0) await setImmediatePromise();
    }
    return postingsOf(pairs);
  }

  /**
   * Each item's position in id order and its type, by rid: read like postings, since reading every
   * item's row is some 80 ms' work at 100,000 items.
   */
  private async readItemOrder(): Promise<ItemOrder> {
    const ridEnd = (this.statement(SELECT_LAST_RID, 'pluck').get() as number) + 1;
    const rids = new Int32Array(ridEnd);
    const positions = new Int32Array(ridEnd).fill(-1);
    const typeCodes = new Uint8Array(ridEnd);
    let position = 0;
    for (const [rid, type] of this.statement(SELECT_ITEMS_BY_ID, 'raw').iterate() as Iterable<
      [number, string]
    >) {
      rids[position] = rid;
      positions[rid] = position++;
      typeCodes[rid] = typeCode(type);
      if (position % ROWS_PER_TURN === 0) await setImmediatePromise();
    }
    return { rids: rids.subarray(0, position), positions, typeCodes };
  }

  /**
   * The rids of the items of `types` (of every type when none), in id order, kept per store
   * version: what a search without text or scope lists, picked from the item order in a pass over
   * it (under a millisecond at 100,000 items, where reading them from the table took some 100 ms).
   */
  private ridsOfTypes(
    types: readonly string[] | undefined,
    order: ItemOrder,
    listOrder: Int32Array = order.rids,
    listOrderName = 'id',
  ): Int32Array {
    const kept = typeCodeBits(typeCodes(types?.length ? types : ITEM_TYPES));
    return this.cached(
      `rids of types\0${listOrderName}\0${kept}`,
      () => {
        const rids = new Int32Array(listOrder.length);
        let count = 0;
        for (const rid of listOrder) if ((typeBit(order.typeCodes[rid]) & kept) !== 0) rids[count++] = rid;
        return rids.subarray(0, count);
      },
      (rids) => 1 + Math.ceil(rids.length / 8),
    );
  }

  /**
   * The full-text rows of a search scope's items, ascending, kept per store version. The items' rids
   * are read along indexes alone (a subtree's, a few ms for thousands of units; with their types
   * from the table, three times that), their types taken from the item `order`.
   */
  private scopeRows(
    scope: NonNullable<SearchQuery['scope']>,
    subtree: Subtree | undefined,
    order: ItemOrder,
  ): Float64Array {
    return this.cached(
      `scope rows\0${scope.depth}\0${scope.id}`,
      () => {
        const rids = (
          scope.depth === 'children'
            ? this.statement(SELECT_CHILD_RIDS, 'pluck').all(scope.id)
            : this.statement(SELECT_SUBTREE_RIDS, 'pluck').all(subtree!.below, subtree!.belowEnd)
        ) as number[];
        return Float64Array.from(rids, (rid) => textRowOfCode(rid, order.typeCodes[rid])).sort();
      },
      (rows) => 1 + Math.ceil(rows.length / 8),
    );
  }

  private page(sql: SearchSql, offset: number, limit: number): ItemRef[] {
    const params = { ...sql.params, limit, offset, last: offset + limit - 1 };
    return this.statement(sql.page).all(params) as ItemRef[];
  }

  /**
   * The one indexed term that starts with `prefix`, if only one does (fts-query.ts): two steps
   * into the index's term list, kept per store version. Only read transactions open the term list
   * (term-index.ts).
   */
  private readonly soleTerm = (prefix: string): string | undefined =>
    this.cached(`term\0${prefix}`, () => {
      const { from, to } = termRange(prefix);
      const next = this.statement(SELECT_TERM_FROM, 'pluck');
      const first = next.get(from, to) as string | undefined;
      if (first === undefined || !ASCII_TERM.test(first)) return undefined;
      // No index term holds a control character: this is the least string after `first` but it.
      return next.get(`${first}\u0001`, to) === undefined ? first : undefined;
    });

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

  async getRecord(id: string): Promise<RecordNode | undefined> {
    const row = this.statement(SELECT_RECORD).get(id) as RecordRow | undefined;
    return row && toRecord(row);
  }

  /**
   * Cached per store version like searches: every request looks its bearer token up here, and a
   * revocation is a write, which a read at the next version sees.
   */
  async findRecords(query: RecordQuery): Promise<{ total: number; records: RecordNode[] }> {
    const found = this.cached(
      `records\0${JSON.stringify(query)}`,
      () => {
        const sql = recordQuerySql(query);
        const total = this.statement(sql.count, 'pluck').get(...sql.params) as number;
        const rows = this.statement(sql.page).all(...sql.pageParams) as RecordRow[];
        return { total, records: rows.map(toRecord) };
      },
      (value) => 1 + value.records.length,
    );
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

  /** The path range below an item and the span of its subtree's text rows. */
  private subtreeOf(scopeId: string): Subtree {
    return this.cached(`subtree\0${scopeId}`, () => {
      const { from, to } = this.pathRangeBelow(scopeId);
      const rids = this.statement(SELECT_RID_SPAN).get(from, to) as {
        first: number | null;
        last: number | null;
      };
      return { below: from, belowEnd: to, ...textRowRange(rids.first ?? 1, rids.last ?? 0) };
    });
  }

  private pairs<T>(sql: string, ids: readonly string[]): Map<string, T> {
    if (ids.length === 0) return new Map();
    return new Map(this.statement(sql, 'raw').all(JSON.stringify(ids)) as [string, T][]);
  }
}

/** Text held weighs as a cached search hit does per this many characters. */
const CHARACTERS_PER_WEIGHT = 200;

/**
 * An item as the items cache holds it (`SELECT_ITEM_TEXTS` writes it): its row's values, its
 * dependents and its edges, props parsed. One string to an item, where its rows were some sixty
 * objects: tens of thousands of cached items cost the garbage collector next to nothing, and one
 * parse restores them.
 */
type ItemText = [
  id: string,
  type: ItemType,
  data: Props,
  hash: string,
  updated: string,
  dependents: DependentNode[],
  edges: [type: ItemEdgeType, dst: string][],
];

function storedItemOf(text: string): StoredItem {
  const [id, type, data, hash, updated, dependents, edges] = JSON.parse(text) as ItemText;
  const bundle: Bundle = { id, type, data, relations: {} };
  attachDependents(bundle, dependents);
  const stored: StoredItem = { bundle, edges: {}, hash, updated };
  for (const [edgeType, dst] of edges) (stored.edges[edgeType] ??= []).push(dst);
  return stored;
}

interface AccessPointRow {
  id: string;
  owner: string;
  name: string;
  type: unknown;
}

function toRecord(row: RecordRow): RecordNode {
  return { id: row.id, type: row.type, props: JSON.parse(row.props) as Props };
}

/** Orders a subtree breadth first from its root; an item reached twice keeps its first parent. */
function parentsFirst(rootId: string, rows: SubtreeEntry[]): SubtreeEntry[] {
  const childrenOf = new Map<string, SubtreeEntry[]>();
  for (const row of rows) {
    const siblings = childrenOf.get(row.parentId);
    if (siblings) siblings.push(row);
    else childrenOf.set(row.parentId, [row]);
  }
  const ordered: SubtreeEntry[] = [];
  const seen = new Set([rootId]);
  const queue = [rootId];
  for (let head = 0; head < queue.length; head++) {
    const children = childrenOf.get(queue[head]) ?? [];
    for (const child of children.sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      ordered.push({ id: child.id, type: child.type, localId: child.localId, parentId: child.parentId });
      queue.push(child.id);
    }
  }
  return ordered;
}
