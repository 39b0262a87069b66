import { Bundle } from '../../items/bundle';
import {
  CHILD_EDGE_TYPES,
  DEPENDENT_RELATIONS,
  DependentRelation,
  ITEM_EDGE_TYPES,
  ITEM_TYPES,
  ItemEdgeType,
} from '../../items/item-types';
import { searchableText } from '../../items/search-text';
import { GraphWriter, ItemWrite, RecordNode } from '../graph-store';
import { SqliteGraphReader } from './sqlite-graph-reader';
import { textRow } from './text-rows';
import { assertPathSafeId, pathBelow, pathContains, pathRange } from './item-paths';
import { CHILD_EDGES, IN_RELATIONS, OUT_RELATIONS, SELECT_PARENT_ID, SELECT_PATH } from './sql';

const SELECT_ITEM_STATE = 'SELECT rid, type, hash, updated FROM node WHERE id = ? AND owner IS NULL';
const INSERT_ITEM = 'INSERT INTO node (id, type, props, hash, updated, path) VALUES (?, ?, ?, ?, ?, ?)';
const UPDATE_ITEM = 'UPDATE node SET type = ?, props = ?, hash = ?, updated = ? WHERE rid = ?';
const INSERT_DEPENDENT = 'INSERT INTO node (id, type, owner, props) VALUES (?, ?, ?, ?)';
const SELECT_OWNED = 'SELECT id FROM node WHERE owner = ?';
const DELETE_OWNED = 'DELETE FROM node WHERE owner = ?';
const DELETE_NODE = 'DELETE FROM node WHERE rid = ?';

const INSERT_TEXT = 'INSERT INTO item_text (rowid, names, text) VALUES (?, ?, ?)';
const DELETE_TEXT = 'DELETE FROM item_text WHERE rowid = ?';

const INSERT_EDGE = 'INSERT OR IGNORE INTO edge (src, type, dst) VALUES (?, ?, ?)';
const DELETE_EDGES_FROM = 'DELETE FROM edge WHERE src = ?';
const DELETE_EDGES_TO = 'DELETE FROM edge WHERE dst = ?';
const DELETE_EDGES_OF_TYPE = 'DELETE FROM edge WHERE src = ? AND type = ?';
const DELETE_DEPENDENT_EDGES = [
  `DELETE FROM edge WHERE dst IN (SELECT id FROM node WHERE owner = ?) AND type IN (${OUT_RELATIONS})`,
  `DELETE FROM edge WHERE src IN (SELECT id FROM node WHERE owner = ?) AND type IN (${IN_RELATIONS})`,
];
const COPY_EDGES_TO = `
  INSERT OR IGNORE INTO edge (src, type, dst) SELECT src, type, @to FROM edge WHERE dst = @from AND type = @type`;
const DELETE_EDGES_TO_OF_TYPE = 'DELETE FROM edge WHERE dst = @from AND type = @type';

const SET_PATH = 'UPDATE node SET path = ? WHERE id = ? AND owner IS NULL';
const MOVE_PATHS = `
  UPDATE node SET path = @to || substr(path, length(@from) + 1)
  WHERE owner IS NULL AND path >= @from AND path < @fromEnd`;
const ANY_PATH_IN = 'SELECT 1 FROM node WHERE owner IS NULL AND path >= @from AND path < @fromEnd LIMIT 1';
const SELECT_CHILDREN = `SELECT DISTINCT src FROM edge WHERE dst = ? AND type IN (${CHILD_EDGES})`;

const PUT_RECORD = 'INSERT OR REPLACE INTO record (id, type, props) VALUES (?, ?, ?)';

const ITEM_TYPE_SET: ReadonlySet<string> = new Set(ITEM_TYPES);
const ITEM_EDGE_TYPE_SET: ReadonlySet<string> = new Set(ITEM_EDGE_TYPES);
const CHILD_EDGE_TYPE_SET: ReadonlySet<string> = new Set(CHILD_EDGE_TYPES);

interface ItemText {
  row: number;
  /** The item's full-text row before this write, if it had one. */
  oldRow?: number;
  names: string;
  text: string;
}

interface ItemState {
  rid: number;
  type: string;
  hash: string;
  updated: string;
}

/** The writes of the port on the writer's connection, inside its open transaction. */
export class SqliteGraphWriter extends SqliteGraphReader implements GraphWriter {
  async putItems(items: readonly ItemWrite[]): Promise<void> {
    const now = new Date().toISOString();
    const texts = items.map((item) => this.putItem(item, now));
    this.writeTexts(texts);
  }

  async deleteItems(ids: readonly string[]): Promise<void> {
    const deleted: number[] = [];
    for (const id of ids) {
      const state = this.statement(SELECT_ITEM_STATE).get(id) as ItemState | undefined;
      if (!state) continue;
      const children = this.statement(SELECT_CHILDREN, 'pluck').all(id) as string[];
      for (const nodeId of [id, ...this.ownedBy(id)]) this.deleteEdgesTouching(nodeId);
      this.statement(DELETE_OWNED).run(id);
      this.statement(DELETE_NODE).run(state.rid);
      for (const child of children) this.refreshPath(child);
      deleted.push(textRow(state.rid, state.type));
    }
    const deleteText = this.statement(DELETE_TEXT);
    for (const row of deleted) deleteText.run(row);
  }

  async addEdges(edges: readonly { from: string; type: ItemEdgeType; to: string }[]): Promise<void> {
    const insert = this.statement(INSERT_EDGE);
    for (const { from, type, to } of edges) insert.run(from, checkedEdgeType(type), to);
    for (const { from, type } of edges) if (CHILD_EDGE_TYPE_SET.has(type)) this.refreshPath(from);
  }

  async retargetEdges(fromId: string, toId: string, type: ItemEdgeType): Promise<void> {
    if (fromId === toId) return;
    const params = { from: fromId, to: toId, type: checkedEdgeType(type) };
    const moved = CHILD_EDGE_TYPE_SET.has(type) ? await this.incoming(fromId, type) : [];
    this.statement(COPY_EDGES_TO).run(params);
    this.statement(DELETE_EDGES_TO_OF_TYPE).run(params);
    for (const child of moved) this.refreshPath(child);
  }

  async putRecords(records: readonly RecordNode[]): Promise<void> {
    const put = this.statement(PUT_RECORD);
    for (const record of records) put.run(record.id, record.type, JSON.stringify(record.props));
  }

  /** Writes an item but for its full text, which `writeTexts` writes for the whole batch. */
  private putItem({ bundle, hash, edges = {} }: ItemWrite, now: string): ItemText {
    assertPathSafeId(bundle.id);
    if (!ITEM_TYPE_SET.has(bundle.type))
      throw new Error(`${bundle.id}: "${bundle.type}" is not an item type`);
    const state = this.statement(SELECT_ITEM_STATE).get(bundle.id) as ItemState | undefined;
    const props = JSON.stringify(bundle.data);
    let rid: number | bigint;
    if (state) {
      rid = state.rid;
      const updated = state.hash === hash ? state.updated : now;
      this.statement(UPDATE_ITEM).run(bundle.type, props, hash, updated, rid);
      this.removeDependents(bundle);
    } else {
      const path = this.pathBelowParent(firstParent(edges));
      rid = this.statement(INSERT_ITEM).run(bundle.id, bundle.type, props, hash, now, path).lastInsertRowid;
      // Children written before their parent hang below the bare parent id until now.
      if (path !== '') this.movePaths(bundle.id, '', path);
    }
    this.insertDependents(bundle, bundle.id);
    for (const [type, targets] of Object.entries(edges)) {
      // A new item has no edges yet: only a rewrite has old ones to replace.
      if (state) this.statement(DELETE_EDGES_OF_TYPE).run(bundle.id, type);
      const insert = this.statement(INSERT_EDGE);
      for (const target of targets) insert.run(bundle.id, checkedEdgeType(type), target);
    }
    if (state && Object.keys(edges).some((type) => CHILD_EDGE_TYPE_SET.has(type)))
      this.refreshPath(bundle.id);
    return {
      row: textRow(rid, bundle.type),
      oldRow: state && textRow(state.rid, state.type),
      ...searchableText(bundle),
    };
  }

  /**
   * Full-text rows go in together, after the batch's other writes: FTS5 flushes its pending rows
   * whenever a statement that may change several rows begins, so interleaving them with such
   * statements would write one tiny index segment per item.
   */
  private writeTexts(texts: ItemText[]): void {
    const deleteText = this.statement(DELETE_TEXT);
    const insertText = this.statement(INSERT_TEXT);
    for (const { row, oldRow, names, text } of texts) {
      if (oldRow !== undefined) deleteText.run(oldRow);
      insertText.run(row, names, text);
    }
  }

  /** Recomputes an item's path from its parent edge, and moves everything below it along. */
  private refreshPath(itemId: string): void {
    const current = this.statement(SELECT_PATH, 'pluck').get(itemId) as string | null | undefined;
    if (current === undefined) return;
    const parentId = this.statement(SELECT_PARENT_ID, 'pluck').get(itemId) as string | undefined;
    const path = this.pathBelowParent(parentId);
    const oldPath = current ?? '';
    if (path === oldPath) return;
    if (pathContains(path, itemId)) throw new Error(`${itemId} cannot be placed below itself`);
    this.statement(SET_PATH).run(path, itemId);
    this.movePaths(itemId, oldPath, path);
  }

  private pathBelowParent(parentId: string | undefined): string {
    if (parentId === undefined) return '';
    const parentPath = this.statement(SELECT_PATH, 'pluck').get(parentId) as string | null | undefined;
    return pathBelow(parentPath ?? '', parentId);
  }

  /**
   * Rewrites the paths of the items below `itemId` after its own path changed. Looks first: an
   * UPDATE of many rows opens a statement savepoint, which costs more than the look.
   */
  private movePaths(itemId: string, oldPath: string, newPath: string): void {
    const { from, to } = pathRange(pathBelow(oldPath, itemId));
    const range = { from, fromEnd: to };
    if (this.statement(ANY_PATH_IN).get(range) === undefined) return;
    this.statement(MOVE_PATHS).run({ ...range, to: pathBelow(newPath, itemId) });
  }

  /**
   * Removes the item's dependents before their replacements are written. Item-level edges to a
   * dependent that keeps its id (a link to an access point) survive; those to one that goes, go.
   */
  private removeDependents(bundle: Bundle): void {
    const old = this.ownedBy(bundle.id);
    if (old.length === 0) return;
    for (const sql of DELETE_DEPENDENT_EDGES) this.statement(sql).run(bundle.id);
    const kept = dependentIds(bundle);
    for (const id of old) if (!kept.has(id)) this.deleteEdgesTouching(id);
    this.statement(DELETE_OWNED).run(bundle.id);
  }

  private insertDependents(node: Bundle, ownerId: string): void {
    const insertNode = this.statement(INSERT_DEPENDENT);
    const insertEdge = this.statement(INSERT_EDGE);
    for (const [relation, children] of Object.entries(node.relations) as [DependentRelation, Bundle[]][]) {
      const direction = DEPENDENT_RELATIONS[relation];
      if (!direction) throw new Error(`"${relation}" is not a dependent relation (node ${node.id})`);
      for (const child of children) {
        insertNode.run(child.id, child.type, ownerId, JSON.stringify(child.data));
        if (direction === 'out') insertEdge.run(node.id, relation, child.id);
        else insertEdge.run(child.id, relation, node.id);
        this.insertDependents(child, ownerId);
      }
    }
  }

  private ownedBy(itemId: string): string[] {
    return this.statement(SELECT_OWNED, 'pluck').all(itemId) as string[];
  }

  private deleteEdgesTouching(nodeId: string): void {
    this.statement(DELETE_EDGES_FROM).run(nodeId);
    this.statement(DELETE_EDGES_TO).run(nodeId);
  }
}

function checkedEdgeType(type: string): string {
  if (!ITEM_EDGE_TYPE_SET.has(type)) throw new Error(`"${type}" is not an item edge type`);
  return type;
}

/** The parent a new item's edges give it: the smallest target of the first child edge type. */
function firstParent(edges: NonNullable<ItemWrite['edges']>): string | undefined {
  for (const type of CHILD_EDGE_TYPES) {
    const targets = edges[type];
    if (targets?.length) return targets.reduce((least, target) => (target < least ? target : least));
  }
  return undefined;
}

function dependentIds(bundle: Bundle, into = new Set<string>()): Set<string> {
  for (const children of Object.values(bundle.relations)) {
    for (const child of children) dependentIds(child, into.add(child.id));
  }
  return into;
}
