import { Bundle } from '../../items/bundle';
import { CHILD_EDGE_TYPES, ITEM_EDGE_TYPES, ITEM_TYPES, ItemEdgeType } from '../../items/item-types';
import { searchableText } from '../../items/search-text';
import { GraphWriter, ItemWrite, PutItemsOptions, RecordNode } from '../graph-store';
import { DEPENDENT_COLUMNS, dependentRange, DependentRow, dependentRows } from './dependent-rows';
import { ItemPlacement } from './item-placement';
import { insertRows } from './row-inserts';
import { CHILD_EDGES, IN_JSON, itemExists } from './sql';
import { SqliteGraphReader } from './sqlite-graph-reader';
import { StatementCache } from './statement-cache';
import { textRow } from './search/text-rows';

const SELECT_ITEM_STATES = `SELECT id, rid, type, props, hash, updated FROM item WHERE id ${IN_JSON}`;
const NEXT_ITEM_RID = 'SELECT coalesce(max(rid), 0) + 1 FROM item';
const INSERT_ITEMS = 'INSERT OR IGNORE INTO item (rid, id, type, props, hash, updated, path)';
const ITEM_WIDTH = 7;
const UPDATE_ITEM = 'UPDATE item SET type = ?, props = ?, hash = ?, updated = ? WHERE rid = ?';
const DELETE_ITEM = 'DELETE FROM item WHERE rid = ?';
const SET_HASH = 'UPDATE item SET hash = ? WHERE id = ?';

const INSERT_DEPENDENTS = `INSERT OR IGNORE INTO dependent (${DEPENDENT_COLUMNS})`;
const DEPENDENT_WIDTH = 7;
const SELECT_DEPENDENTS = `SELECT ${DEPENDENT_COLUMNS} FROM dependent WHERE rid >= ? AND rid < ?`;
const UPDATE_DEPENDENT =
  'UPDATE dependent SET id = ?, type = ?, parent = ?, relation = ?, props = ?, name = ? WHERE rid = ?';
const DELETE_DEPENDENTS = 'DELETE FROM dependent WHERE rid >= ? AND rid < ?';

const INSERT_TEXT =
  'INSERT INTO item_text (rowid, names, text, titles, identifiers, scope) VALUES (?, ?, ?, ?, ?, ?)';
const DELETE_TEXT = 'DELETE FROM item_text WHERE rowid = ?';

const INSERT_EDGES = 'INSERT OR IGNORE INTO edge (src, type, dst)';
const EDGE_WIDTH = 3;
/** Edges leave written items only: one from an item not written is not added. */
const ADD_EDGE = `
  INSERT OR IGNORE INTO edge (src, type, dst)
  SELECT @from, @type, @to WHERE ${itemExists('@from')}`;
const SELECT_EDGES_FROM = 'SELECT type, dst FROM edge WHERE src = ?';
const DELETE_EDGES_OF_TYPE = 'DELETE FROM edge WHERE src = ? AND type = ?';
const DELETE_EDGES_FROM = 'DELETE FROM edge WHERE src = ?';
const DELETE_EDGES_TO = `DELETE FROM edge WHERE dst ${IN_JSON}`;
const SELECT_SOURCES = 'SELECT DISTINCT src FROM edge WHERE dst = ? AND type = ?';
const SELECT_CHILDREN = `SELECT DISTINCT src FROM edge WHERE dst = ? AND type IN (${CHILD_EDGES})`;
const COPY_EDGES_TO = `
  INSERT OR IGNORE INTO edge (src, type, dst) SELECT src, type, @to FROM edge WHERE dst = @from AND type = @type`;
const DELETE_EDGES_TO_OF_TYPE = 'DELETE FROM edge WHERE dst = @from AND type = @type';

const PUT_RECORD = 'INSERT OR REPLACE INTO record (id, type, props) VALUES (?, ?, ?)';

const ITEM_TYPE_SET: ReadonlySet<string> = new Set(ITEM_TYPES);
const ITEM_EDGE_TYPE_SET: ReadonlySet<string> = new Set(ITEM_EDGE_TYPES);
const CHILD_EDGE_TYPE_SET: ReadonlySet<string> = new Set(CHILD_EDGE_TYPES);

type Edges = NonNullable<ItemWrite['edges']>;

interface ItemState {
  id: string;
  rid: number;
  type: string;
  props: string;
  hash: string;
  updated: string;
}

/**
 * The rows a `putItems` call inserts, gathered so that they go in several to a statement. Writes
 * to rows that exist (updates, deletes) run at once.
 */
class WriteBatch {
  readonly ids = new Set<string>();
  readonly items: unknown[] = [];
  readonly dependents: unknown[] = [];
  readonly edges: unknown[] = [];
  /** Rewritten items whose first parent changed. */
  readonly moved: string[] = [];

  constructor(public nextRid: number) {}
}

/** The writes of the port on the writer's connection, inside its open transaction. */
export class SqliteGraphWriter extends SqliteGraphReader implements GraphWriter {
  private readonly placement: ItemPlacement;

  /** Whether the transaction wrote items or edges, not records alone (`items_version`). */
  itemsWritten = false;

  constructor(connection: StatementCache) {
    super(connection);
    this.placement = new ItemPlacement((sql, mode) => this.statement(sql, mode));
  }

  /** Stores the paths still to be worked out: before a query reads paths, and before commit. */
  protected override placeItems(): void {
    this.placement.placeAll();
  }

  async putItems(items: readonly ItemWrite[], options: PutItemsOptions = {}): Promise<void> {
    this.itemsWritten = true;
    const now = new Date().toISOString();
    const states = this.itemStates(items.map((item) => item.bundle.id));
    let batch = this.newBatch();
    for (const item of items) {
      const id = item.bundle.id;
      if (batch.ids.has(id)) {
        // A second write of an id must find the first one stored.
        this.flush(batch);
        batch = this.newBatch();
        this.itemStates([id]).forEach((state) => states.set(id, state));
      }
      batch.ids.add(id);
      const state = states.get(id);
      if (state) this.rewriteItem(item, state, batch, now);
      else this.createItem(item, batch, now, options.ancestors?.get(id));
    }
    this.flush(batch);
  }

  async prepareCommit(): Promise<void> {
    this.placeItems();
  }

  async setHashes(hashes: ReadonlyMap<string, string>): Promise<void> {
    this.itemsWritten = true;
    const setHash = this.statement(SET_HASH);
    for (const [id, hash] of hashes) setHash.run(hash, id);
  }

  async deleteItems(ids: readonly string[]): Promise<void> {
    this.itemsWritten = true;
    for (const id of ids) {
      const state = this.itemStates([id]).get(id);
      if (!state) continue;
      const children = this.statement(SELECT_CHILDREN, 'pluck').all(id) as string[];
      const { first, end } = dependentRange(state.rid);
      const dependents = this.statement(SELECT_DEPENDENTS, 'raw').all(first, end) as DependentRow[];
      this.statement(DELETE_EDGES_FROM).run(id);
      this.statement(DELETE_EDGES_TO).run(
        JSON.stringify([id, ...dependents.map(([, dependentId]) => dependentId)]),
      );
      this.statement(DELETE_DEPENDENTS).run(first, end);
      this.statement(DELETE_ITEM).run(state.rid);
      this.statement(DELETE_TEXT).run(textRow(state.rid, state.type));
      this.placement.deleted();
      for (const child of children) this.placement.parentChanged(child);
    }
  }

  async addEdges(edges: readonly { from: string; type: ItemEdgeType; to: string }[]): Promise<void> {
    this.itemsWritten = true;
    const add = this.statement(ADD_EDGE);
    for (const { from, type, to } of edges) add.run({ from, type: checkedEdgeType(type), to });
    for (const { from, type } of edges) if (CHILD_EDGE_TYPE_SET.has(type)) this.placement.parentChanged(from);
  }

  async retargetEdges(fromId: string, toId: string, type: ItemEdgeType): Promise<void> {
    this.itemsWritten = true;
    if (fromId === toId) return;
    const params = { from: fromId, to: toId, type: checkedEdgeType(type) };
    const moved = CHILD_EDGE_TYPE_SET.has(type)
      ? (this.statement(SELECT_SOURCES, 'pluck').all(fromId, type) as string[])
      : [];
    this.statement(COPY_EDGES_TO).run(params);
    this.statement(DELETE_EDGES_TO_OF_TYPE).run(params);
    for (const child of moved) this.placement.parentChanged(child);
  }

  async putRecords(records: readonly RecordNode[]): Promise<void> {
    const put = this.statement(PUT_RECORD);
    for (const record of records) put.run(record.id, record.type, JSON.stringify(record.props));
  }

  private itemStates(ids: readonly string[]): Map<string, ItemState> {
    const rows = this.statement(SELECT_ITEM_STATES).all(JSON.stringify(ids)) as ItemState[];
    return new Map(rows.map((row) => [row.id, row]));
  }

  private newBatch(): WriteBatch {
    return new WriteBatch(this.statement(NEXT_ITEM_RID, 'pluck').get() as number);
  }

  private createItem(
    { bundle, hash, edges = {} }: ItemWrite,
    batch: WriteBatch,
    now: string,
    ancestors: readonly string[] | undefined,
  ): void {
    checkItem(bundle);
    const rid = batch.nextRid++;
    const path = this.placement.create(bundle.id, rid, firstParent(edges), ancestors);
    batch.items.push(rid, bundle.id, bundle.type, JSON.stringify(bundle.data), hash, now, path);
    for (const row of dependentRows(bundle, rid)) batch.dependents.push(...row);
    for (const [type, targets] of Object.entries(edges)) {
      for (const target of targets) batch.edges.push(bundle.id, checkedEdgeType(type), target);
    }
    this.writeText(textRow(rid, bundle.type), bundle);
  }

  /** Writes what changed of an item that exists; an unchanged part is left as it is. */
  private rewriteItem(
    { bundle, hash, edges = {} }: ItemWrite,
    state: ItemState,
    batch: WriteBatch,
    now: string,
  ): void {
    checkItem(bundle);
    const props = JSON.stringify(bundle.data);
    const dataChanged = bundle.type !== state.type || props !== state.props;
    if (dataChanged || hash !== state.hash) {
      const updated = hash === state.hash ? state.updated : now;
      this.statement(UPDATE_ITEM).run(bundle.type, props, hash, updated, state.rid);
    }
    const dependentsChanged = this.rewriteDependents(bundle, state.rid, batch);
    if (dataChanged || dependentsChanged) {
      this.statement(DELETE_TEXT).run(textRow(state.rid, state.type));
      this.writeText(textRow(state.rid, bundle.type), bundle);
    }
    if (this.rewriteEdges(bundle.id, edges, batch)) batch.moved.push(bundle.id);
  }

  /**
   * Brings an item's dependent rows to those of `bundle`, position by position, and drops the edges
   * to dependents whose id goes (edges to one that keeps its id stay). Whether anything changed.
   */
  private rewriteDependents(bundle: Bundle, itemRid: number, batch: WriteBatch): boolean {
    const { first, end } = dependentRange(itemRid);
    const old = this.statement(SELECT_DEPENDENTS, 'raw').all(first, end) as DependentRow[];
    const rows = dependentRows(bundle, itemRid);
    let changed = old.length !== rows.length;
    const update = this.statement(UPDATE_DEPENDENT);
    rows.forEach((row, position) => {
      const previous = old[position];
      if (previous === undefined) batch.dependents.push(...row);
      else if (!sameRow(previous, row)) {
        const [rid, ...values] = row;
        update.run(...values, rid);
        changed = true;
      }
    });
    if (old.length > rows.length) this.statement(DELETE_DEPENDENTS).run(first + rows.length, end);
    const kept = new Set(rows.map(([, id]) => id));
    const gone = old.map(([, id]) => id).filter((id) => !kept.has(id));
    if (gone.length > 0) this.statement(DELETE_EDGES_TO).run(JSON.stringify(gone));
    return changed;
  }

  /** Replaces the edge types a rewrite names, where they differ; whether its first parent changed. */
  private rewriteEdges(itemId: string, edges: Edges, batch: WriteBatch): boolean {
    const named = Object.entries(edges) as [ItemEdgeType, string[]][];
    if (named.length === 0) return false;
    const stored: Edges = {};
    for (const { type, dst } of this.statement(SELECT_EDGES_FROM).all(itemId) as EdgeRow[]) {
      (stored[type] ??= []).push(dst);
    }
    const parentBefore = firstParent(stored);
    for (const [type, targets] of named) {
      if (sameTargets(stored[checkedEdgeType(type)], targets)) continue;
      this.statement(DELETE_EDGES_OF_TYPE).run(itemId, type);
      for (const target of targets) batch.edges.push(itemId, type, target);
      stored[type] = targets;
    }
    return firstParent(stored) !== parentBefore;
  }

  private flush(batch: WriteBatch): void {
    this.insertEvery(INSERT_ITEMS, ITEM_WIDTH, batch.items);
    this.insertEvery(INSERT_DEPENDENTS, DEPENDENT_WIDTH, batch.dependents);
    insertRows((sql) => this.statement(sql), INSERT_EDGES, EDGE_WIDTH, batch.edges);
    for (const id of batch.moved) this.placement.parentChanged(id);
  }

  /** Inserts rows none of which may conflict with a stored one (rids are allotted from the highest). */
  private insertEvery(head: string, width: number, values: readonly unknown[]): void {
    const inserted = insertRows((sql) => this.statement(sql), head, width, values);
    if (inserted * width !== values.length) throw new Error(`${head}: a row conflicts with a stored one`);
  }

  private writeText(row: number, bundle: Bundle): void {
    const { names, text, titles, identifiers, scopeAndContent } = searchableText(bundle);
    this.statement(INSERT_TEXT).run(row, names, text, titles, identifiers, scopeAndContent);
  }
}

interface EdgeRow {
  type: ItemEdgeType;
  dst: string;
}

function checkItem(bundle: Bundle): void {
  if (!ITEM_TYPE_SET.has(bundle.type)) throw new Error(`${bundle.id}: "${bundle.type}" is not an item type`);
}

function checkedEdgeType(type: string): ItemEdgeType {
  if (!ITEM_EDGE_TYPE_SET.has(type)) throw new Error(`"${type}" is not an item edge type`);
  return type as ItemEdgeType;
}

/** An item's parent by its edges: the smallest target of the first child edge type it has. */
function firstParent(edges: Edges): string | undefined {
  for (const type of CHILD_EDGE_TYPES) {
    const targets = edges[type];
    if (targets?.length) return targets.reduce((least, target) => (target < least ? target : least));
  }
  return undefined;
}

function sameRow(a: DependentRow, b: DependentRow): boolean {
  return a.every((value, column) => value === b[column]);
}

function sameTargets(stored: readonly string[] = [], targets: readonly string[]): boolean {
  if (stored.length !== new Set(targets).size) return false;
  const storedSet = new Set(stored);
  return targets.every((target) => storedSet.has(target));
}
