import { Bundle, Props } from '../../items/bundle';
import { ItemEdgeType, ItemType } from '../../items/item-types';
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
import { attachDependents, DependentRow, POSITION_BITS } from './dependent-rows';
import { recordQuerySql } from './record-sql';
import { searchSql, Subtree } from './search-sql';
import { textRowRange } from './text-rows';
import { pathBelow, pathRange } from './item-paths';
import { ReadCache } from './read-cache';
import { CHILD_EDGES, IN_JSON, isWritten, itemExists, SELECT_PARENT_ID, SELECT_PATH } from './sql';
import { RowMode, StatementCache } from './statement-cache';

const SELECT_ITEMS = `SELECT rid, id, type, props, hash, updated FROM item WHERE id ${IN_JSON}`;
const SELECT_HASHES = `SELECT id, hash FROM item WHERE id ${IN_JSON}`;
const SELECT_TYPES = `SELECT id, type FROM item WHERE id ${IN_JSON}`;
const ITEM_EXISTS = `SELECT ${itemExists('?')}`;

/**
 * The dependents of the items whose rids are given, item by item (CROSS JOIN keeps that loop
 * order), each item's in rid order: one range of the table's key per item.
 */
const SELECT_DEPENDENTS = `
  SELECT d.rid, d.id, d.type, d.parent, d.relation, d.props, d.name
  FROM json_each(?) owner CROSS JOIN dependent d
    ON d.rid >= owner.value << ${POSITION_BITS} AND d.rid < (owner.value + 1) << ${POSITION_BITS}`;

const SELECT_ITEM_EDGES = `
  SELECT src, type, dst FROM edge WHERE src ${IN_JSON} AND ${isWritten('dst')} ORDER BY src, type, dst`;

/** The parent of an item, with its type. */
const SELECT_PARENT = `SELECT id, type FROM item WHERE id = (${SELECT_PARENT_ID.trim()})`;

const COUNT_CHILDREN = `
  SELECT count(*) FROM edge
  WHERE dst = @id AND type IN (${CHILD_EDGES}) AND ${itemExists('@id')}`;

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

/** From this offset on, a page without text is cut from the whole ordered list, kept in the cache. */
const DEEP_OFFSET = 1000;

const SELECT_INCOMING = `
  SELECT src FROM edge WHERE dst = @target AND type = @type AND ${isWritten('@target')} ORDER BY src`;
const SELECT_RECORD = 'SELECT id, type, props FROM record WHERE id = ?';

interface ItemRow {
  rid: number;
  id: string;
  type: ItemType;
  props: string;
  hash: string;
  updated: string;
}

interface RecordRow {
  id: string;
  type: string;
  props: string;
}

/**
 * The queries of the port on one connection: a read-only connection inside a read transaction, or
 * the writer's connection (so that a write sees its own uncommitted changes). Usable until `end()`.
 */
export class SqliteGraphReader implements GraphReader {
  private ended = false;

  /** `snapshot`: the store version a read transaction sees, and the cache for that version. */
  constructor(
    private readonly connection: StatementCache,
    private readonly snapshot?: { version: number; cache: ReadCache },
  ) {}

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

  /** `getItems` without the promise, for code that runs inside a synchronous step (migrations). */
  storedItems(ids: readonly string[]): Map<string, StoredItem> {
    const rows = this.statement(SELECT_ITEMS).all(JSON.stringify(ids)) as ItemRow[];
    const items = new Map<string, StoredItem>();
    if (rows.length === 0) return items;
    const byRid = new Map<number, Bundle>();
    for (const row of rows) {
      const bundle: Bundle = {
        id: row.id,
        type: row.type,
        data: JSON.parse(row.props) as Props,
        relations: {},
      };
      byRid.set(row.rid, bundle);
      items.set(row.id, { bundle, edges: {}, hash: row.hash, updated: row.updated });
    }
    const rids = JSON.stringify(rows.map((row) => row.rid));
    attachDependents(byRid, this.statement(SELECT_DEPENDENTS, 'raw').all(rids) as DependentRow[]);
    const found = JSON.stringify(rows.map((row) => row.id));
    for (const { src, type, dst } of this.statement(SELECT_ITEM_EDGES).all(found) as EdgeRow[]) {
      const edges = items.get(src)!.edges;
      (edges[type] ??= []).push(dst);
    }
    return items;
  }

  async getHashes(ids: readonly string[]): Promise<Map<string, string>> {
    return this.pairs<string>(SELECT_HASHES, ids);
  }

  async getTypes(ids: readonly string[]): Promise<Map<string, ItemType>> {
    return this.pairs<ItemType>(SELECT_TYPES, ids);
  }

  async ancestors(ids: readonly string[]): Promise<Map<string, ItemRef[]>> {
    return new Map(ids.map((id) => [id, this.chainAbove(id)]));
  }

  async countChildren(ids: readonly string[]): Promise<Map<string, number>> {
    const count = this.statement(COUNT_CHILDREN, 'pluck');
    return new Map(ids.map((id) => [id, this.cached(`children\0${id}`, () => count.get({ id }) as number)]));
  }

  async subtree(rootId: string): Promise<SubtreeEntry[]> {
    const rows = this.statement(SELECT_BELOW).all({ scope: rootId }) as SubtreeEntry[];
    return parentsFirst(rootId, rows);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    if (query.scope && !this.exists(query.scope.id)) return { total: 0, hits: [] };
    const subtree = query.scope?.depth === 'descendants' ? this.subtreeOf(query.scope.id) : undefined;
    const sql = searchSql(query, subtree);
    const key = `${sql.page}\0${JSON.stringify(sql.params)}`;
    const total = this.cached(key, () => this.statement(sql.count, 'pluck').get(sql.params) as number);
    if (total <= query.offset) return { total, hits: [] };
    let hits: ItemRef[];
    if (sql.all !== undefined && query.offset >= DEEP_OFFSET) {
      const all = sql.all;
      const everything = this.cached(`${key}\0all`, () => this.statement(all).all(sql.params) as ItemRef[]);
      hits = everything.slice(query.offset, query.offset + query.limit);
    } else {
      const page = {
        ...sql.params,
        limit: query.limit,
        offset: query.offset,
        last: query.offset + query.limit - 1,
      };
      hits = this.cached(
        `${key}\0${query.offset}\0${query.limit}`,
        () => this.statement(sql.page).all(page) as ItemRef[],
      );
    }
    // Cached hits are shared: callers get their own copies.
    return { total, hits: hits.map((hit) => ({ id: hit.id, type: hit.type })) };
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

  async getRecord(id: string): Promise<RecordNode | undefined> {
    const row = this.statement(SELECT_RECORD).get(id) as RecordRow | undefined;
    return row && toRecord(row);
  }

  async findRecords(query: RecordQuery): Promise<{ total: number; records: RecordNode[] }> {
    const sql = recordQuerySql(query);
    const total = this.statement(sql.count, 'pluck').get(...sql.params) as number;
    const rows = this.statement(sql.page).all(...sql.pageParams) as RecordRow[];
    return { total, records: rows.map(toRecord) };
  }

  /** Cached across read transactions of one store version; a write's reads are never cached. */
  private cached<T>(key: string, compute: () => T): T {
    return this.snapshot ? this.snapshot.cache.get(this.snapshot.version, key, compute) : compute();
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

  private chainAbove(id: string): ItemRef[] {
    const parentOf = this.statement(SELECT_PARENT);
    const chain: ItemRef[] = [];
    const seen = new Set([id]);
    for (
      let parent = parentOf.get(id) as ItemRef | undefined;
      parent;
      parent = parentOf.get(parent.id) as ItemRef
    ) {
      if (seen.has(parent.id)) break;
      seen.add(parent.id);
      chain.push({ id: parent.id, type: parent.type });
    }
    return chain;
  }
}

interface EdgeRow {
  src: string;
  type: ItemEdgeType;
  dst: string;
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
