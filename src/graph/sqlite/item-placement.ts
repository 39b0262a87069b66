import type { Statement } from 'better-sqlite3';
import { pathBelow, pathContains, pathRange } from './item-paths';
import { parameterRows, SELECT_PARENT_ID, SELECT_PATH } from './sql';
import { runInRows } from './row-inserts';
import { RowMode } from './statement-cache';

// Paths are set several items per statement (`runInRows`): a statement per item took half as
// long again.
const SET_PATHS_SQL = new Map<number, string>();
/** The SQL that sets the paths of `rows` items, given as `rid, path` pairs. */
function setPathsSql(rows: number): string {
  let sql = SET_PATHS_SQL.get(rows);
  if (sql === undefined) {
    sql = `UPDATE item SET path = placed.column2 FROM (VALUES ${parameterRows(rows, 2)}) AS placed
      WHERE item.rid = placed.column1`;
    SET_PATHS_SQL.set(rows, sql);
  }
  return sql;
}
const SET_PATH_OF = 'UPDATE item SET path = ? WHERE id = ?';
const MOVE_PATHS = `
  UPDATE item SET path = @to || substr(path, length(@from) + 1) WHERE path >= @from AND path < @fromEnd`;
/** Of the ids (a JSON list), those that items hang below by bare id. */
const WITH_ORPHANS = `
  SELECT value FROM json_each(@ids)
  WHERE EXISTS (SELECT 1 FROM item WHERE path >= value || @separator AND path < value || @afterSeparator)`;
/** The bounds of `pathRange(pathBelow('', id))` after the id. */
const BARE_RANGE = pathRange(pathBelow('', ''));

/** An item created in the current transaction. */
interface Created {
  rid: number;
  /** Its first parent (`SELECT_PARENT_ID`), written or not. */
  parent?: string;
  /** Whether its path is stored; if not, `placeAll` works it out. */
  placed: boolean;
}

/**
 * Keeps the materialised paths of item-paths.ts. An EAD stream writes children before their
 * parent, so a new item whose parent is not placed yet is stored without a path, and the paths
 * still missing are worked out together (one walk up the parents, remembering each) before a query
 * reads paths and before the transaction commits: one path write per item, where placing each item
 * as it comes would rewrite its subtree's paths whenever an ancestor arrives.
 *
 * Until its parent is written, an item's path starts with the parent's bare id; so do the paths of
 * items below it. When the parent arrives, `placeAll` moves them below the parent's own path.
 * Moving an existing item (another parent, edges added, retargeted or deleted) is rare: its subtree
 * moves at once.
 */
export class ItemPlacement {
  private created = new Map<string, Created>();
  /**
   * Paths as stored, or as about to be stored with the rows the writer holds for a batch; kept
   * while no path moves. Undefined for an item that is not written.
   */
  private readonly storedPaths = new Map<string, string | undefined>();

  constructor(private readonly statement: (sql: string, mode?: RowMode) => Statement) {}

  /**
   * Records a new item with its first parent and returns the path to store with it: below its
   * parent when the parent's path is stored, otherwise null, to be worked out by `placeAll`.
   */
  create(id: string, rid: number, parent: string | undefined): string | null {
    const parentPath = parent === undefined ? undefined : this.settledPath(parent);
    const path = parent === undefined ? '' : parentPath === undefined ? null : pathBelow(parentPath, parent);
    this.created.set(id, { rid, parent, placed: path !== null });
    // Known before the row is stored (the writer inserts rows in batches): children in the same
    // batch are placed below it at once.
    if (path === null) this.storedPaths.delete(id);
    else this.storedPaths.set(id, path);
    return path;
  }

  /** The item's first parent may have changed (its edges did): it follows its new parent. */
  parentChanged(id: string): void {
    const created = this.created.get(id);
    if (created?.placed === false) created.parent = this.parentOf(id);
    else this.refresh(id);
  }

  /** A deleted item is no longer to be placed. */
  deleted(id: string): void {
    this.created.delete(id);
    this.storedPaths.clear();
  }

  /**
   * Stores the paths still missing, then moves the items that hang below the bare id of an item
   * created since the last call below that item's path. Afterwards every stored path is current.
   */
  placeAll(): void {
    if (this.created.size === 0) return;
    const created = this.created;
    this.created = new Map();
    const paths = new Map<string, string>();
    const ridsAndPaths: (number | string)[] = [];
    for (const [id, { rid, placed }] of created) {
      if (!placed) ridsAndPaths.push(rid, this.workOutPath(id, created, paths));
    }
    this.setPaths(ridsAndPaths);
    this.storedPaths.clear();
    const mayHaveOrphans = [...created.keys()].filter((id) => paths.get(id) !== '');
    for (const id of this.withOrphans(mayHaveOrphans)) this.movePaths(id, '', this.storedPath(id) ?? '');
  }

  /** Recomputes an item's path from its parent edge, and moves everything below it along. */
  private refresh(itemId: string): void {
    this.placeAll();
    const current = this.storedPath(itemId);
    if (current === undefined) return;
    const parent = this.parentOf(itemId);
    const path = parent === undefined ? '' : pathBelow(this.storedPath(parent) ?? '', parent);
    if (path === current) return;
    if (pathContains(path, itemId)) throw new Error(`${itemId} cannot be placed below itself`);
    this.statement(SET_PATH_OF).run(path, itemId);
    this.movePaths(itemId, current, path);
  }

  /**
   * The path of `id`, an unplaced created item: up through its unplaced ancestors to one whose path
   * is known, then down again, remembering each ancestor's path in `paths` for its other children.
   */
  private workOutPath(id: string, created: ReadonlyMap<string, Created>, paths: Map<string, string>): string {
    const chain: string[] = [];
    let top = '';
    for (let node: string | undefined = id; node !== undefined;) {
      chain.push(node);
      const parent: string | undefined = created.get(node)!.parent;
      node = undefined;
      if (parent === undefined) break;
      const known = paths.get(parent);
      const above = created.get(parent);
      if (known !== undefined) top = pathBelow(known, parent);
      else if (above === undefined || above.placed) top = pathBelow(this.storedPath(parent) ?? '', parent);
      else if (chain.includes(parent)) throw new Error(`${parent} cannot be placed below itself`);
      else node = parent;
    }
    let path = top;
    for (let index = chain.length - 1; ; index--) {
      const node = chain[index];
      if (pathContains(path, node)) throw new Error(`${node} cannot be placed below itself`);
      paths.set(node, path);
      if (index === 0) return path;
      path = pathBelow(path, node);
    }
  }

  /** Stores paths given as a flat list of `rid, path` pairs. */
  private setPaths(ridsAndPaths: readonly (number | string)[]): void {
    runInRows(this.statement, setPathsSql, 2, ridsAndPaths);
  }

  /**
   * The items among `itemIds` that others hang below by their bare id, written before them: those
   * others move below the item's path. One query answers for all of them, and stays true while
   * they move: a move rewrites only paths that start with the moved item's bare id, to start with
   * its own path, which starts with another's bare id only if that one had orphans already.
   */
  private withOrphans(itemIds: readonly string[]): string[] {
    if (itemIds.length === 0) return [];
    return this.statement(WITH_ORPHANS, 'pluck').all({
      ids: JSON.stringify(itemIds),
      separator: BARE_RANGE.from,
      afterSeparator: BARE_RANGE.to,
    }) as string[];
  }

  /** Rewrites the paths below `itemId` after its own path changed from `oldPath` to `newPath`. */
  private movePaths(itemId: string, oldPath: string, newPath: string): void {
    if (oldPath === newPath) return;
    this.storedPaths.clear();
    const { from, to } = pathRange(pathBelow(oldPath, itemId));
    this.statement(MOVE_PATHS).run({ from, fromEnd: to, to: pathBelow(newPath, itemId) });
  }

  /** The path below which an item's children go, if it is written and placed. */
  private settledPath(itemId: string): string | undefined {
    const created = this.created.get(itemId);
    return created?.placed === false ? undefined : this.storedPath(itemId);
  }

  private storedPath(itemId: string): string | undefined {
    if (this.storedPaths.has(itemId)) return this.storedPaths.get(itemId);
    const path = (this.statement(SELECT_PATH, 'pluck').get(itemId) as string | null | undefined) ?? undefined;
    this.storedPaths.set(itemId, path);
    return path;
  }

  private parentOf(itemId: string): string | undefined {
    return this.statement(SELECT_PARENT_ID, 'pluck').get(itemId) as string | undefined;
  }
}
