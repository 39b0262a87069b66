import type { Statement } from 'better-sqlite3';
import { parentIdOf, PATH_SEPARATOR, pathBelow, pathContains, pathRange } from './item-paths';
import { runInRows, sqlForRows } from './row-inserts';
import { parameterRows, SELECT_PATH } from './sql';
import { RowMode, StatementCache } from './statement-cache';

const SELECT_PARENT_ID = `SELECT ${parentIdOf('@item')}`;

/** Rows read per page by `placeNewestFirst`. */
const PLACING_PAGE = 2000;
/** Of the items between rids `@first` and `@before` that have no path yet, a page, newest first, with their parents. */
const UNPLACED_NEWEST_FIRST = `
  SELECT rid, id, ${parentIdOf('item.id')} FROM item
  WHERE rid >= @first AND rid < @before AND path IS NULL ORDER BY rid DESC LIMIT ${PLACING_PAGE}`;
/** `rid, path` pairs. */
const PATH_WIDTH = 2;
const SET_PATHS = 'UPDATE item SET path = paths.column2 FROM';
/** Stores the paths of `rows` items given as `rid, path` pairs. */
function setPaths(rows: number): string {
  return sqlForRows(
    SET_PATHS,
    rows,
    () => `${SET_PATHS} (VALUES ${parameterRows(rows, PATH_WIDTH)}) AS paths WHERE item.rid = paths.column1`,
  );
}

/**
 * The items a round places, with their parents: a table of the writer's connection, which is
 * indexed by parent where one made on the fly for a query may not be, and stays out of this
 * process's heap, however many items an import creates.
 */
const CREATE_UNPLACED = [
  'CREATE TEMP TABLE IF NOT EXISTS unplaced (rid INTEGER PRIMARY KEY, id TEXT NOT NULL, parent TEXT)',
  'CREATE INDEX IF NOT EXISTS temp.unplaced_by_parent ON unplaced (parent)',
];
const FIND_UNPLACED = `
  INSERT INTO temp.unplaced (rid, id, parent)
  SELECT rid, id, ${parentIdOf('item.id')} FROM item WHERE rid >= ? AND path IS NULL`;
/**
 * Stores the paths of the unplaced items, from their parents: below the parent's stored path, or
 * below its bare key if it is not written, or below the path worked out for it here. An item whose
 * path would name itself is left without one, as are the items of a loop of parents, which no
 * stored path leads down to.
 */
const PLACE_UNPLACED = `
  WITH RECURSIVE placed (rid, id, path) AS (
    SELECT unplaced.rid, unplaced.id,
      CASE WHEN unplaced.parent IS NULL THEN ''
        ELSE coalesce(parent.path, '') || path_key(unplaced.parent) || @separator END
    FROM temp.unplaced LEFT JOIN item parent ON parent.id = unplaced.parent
    WHERE parent.rid IS NULL OR parent.path IS NOT NULL
    UNION ALL
    SELECT unplaced.rid, unplaced.id, placed.path || path_key(placed.id) || @separator
    FROM placed JOIN temp.unplaced ON unplaced.parent = placed.id)
  UPDATE item SET path = placed.path FROM placed
  WHERE item.rid = placed.rid AND instr(@separator || placed.path, @separator || path_key(placed.id) || @separator) = 0`;
const FORGET_UNPLACED = 'DELETE FROM temp.unplaced';
const FIRST_UNPLACED = 'SELECT id FROM item WHERE rid >= ? AND path IS NULL ORDER BY rid LIMIT 1';
const SET_PATH_OF = 'UPDATE item SET path = ? WHERE id = ?';
const UNPLACE_BELOW = 'UPDATE item SET path = NULL WHERE rid >= @first AND path >= @from AND path < @to';
const MOVE_PATHS = `
  UPDATE item SET path = @to || substr(path, length(@from) + 1) WHERE path >= @from AND path < @fromEnd`;
/** Of the items at or above rid `@first`, those that items hang below by bare key. */
const WITH_ORPHANS = `
  SELECT id FROM item AS parent
  WHERE rid >= @first AND path <> ''
    AND EXISTS (
      SELECT 1 FROM item WHERE path >= path_key(parent.id) || @separator AND path < path_key(parent.id) || @afterSeparator)`;
/** The bounds of `pathRange(pathBelow('', id))` after the id's key. */
const BARE_RANGE = pathRange(PATH_SEPARATOR);
/**
 * The connection's page cache while the missing paths are worked out, in KiB. The statement's
 * recursive queue and its materialised result are temporary tables that take pages of their own:
 * with better-sqlite3's default cache, working out a large import's paths at its end raised its
 * memory as much as everything else then; a small cache does not, in as much time.
 */
const PLACING_CACHE_KIB = 2048;
const CACHE_SIZE = 'PRAGMA cache_size';
/**
 * Paths remembered at most: enough for an item's siblings and the rows of a batch, while an import
 * of any size keeps no more.
 */
const REMEMBERED_PATHS = 4096;
/**
 * Ancestors' paths assumed at most until `placeAll`, held or failed: a stream that writes children
 * first has as many open as its depth; past this, new items are left to `placeAll` as without a
 * chain.
 */
const ASSUMED_PATHS = 4096;

/**
 * Keeps the materialised paths of item-paths.ts. A stream may write children before their parent
 * (an EAD document writes each unit after its children). A new item whose parent is not placed
 * yet is stored without a path, and the paths still missing are worked out together, in one
 * statement, before a query reads paths and before the transaction commits: one path write per
 * item, where placing each item as it comes would rewrite its subtree's paths whenever an ancestor
 * arrives. What is left to place is read from the rows (a created item has a rid above every
 * stored one, and no path until it is placed), not kept here: an import of any size holds nothing
 * per item (the assumptions below are bounded).
 *
 * Until its parent is written, an item's path starts with the parent's bare key; so do the paths of
 * items below it. When the parent arrives, `placeAll` moves them below the parent's own path.
 * Moving an existing item (another parent, edges added, retargeted or deleted) is rare: its subtree
 * moves at once.
 *
 * An import that knows a new item's ancestors (`PutItemsOptions.ancestors`) lets it be placed at once,
 * below the nearest ancestor placed, by assuming the paths of those in between: each assumption is
 * checked when that ancestor is created, and the items below one that does not hold (an ancestor
 * created elsewhere, or not at all) lose their paths before `placeAll` works them out as above.
 * An EAD stream's items then all have their paths when they are stored.
 */
export class ItemPlacement {
  /** The lowest rid created since the last `placeAll`: it has nothing to do below it. */
  private firstCreated: number | undefined;
  /**
   * Paths as stored, or as about to be stored with the rows the writer holds for a batch; kept
   * while no path moves. Undefined for an item that is not written or not placed yet.
   */
  private readonly storedPaths = new Map<string, string | undefined>();
  /** The paths assumed for ancestors not created yet, by id. */
  private readonly assumedPaths = new Map<string, string>();
  /** Assumptions that did not hold, `[ancestor id, assumed path]`: their descendants lose their paths. */
  private readonly failedAssumptions: [string, string][] = [];
  /** Whether an item created since the last `placeAll` was stored without a path. */
  private leftUnplaced = false;

  constructor(private readonly statement: (sql: string, mode?: RowMode) => Statement) {}

  /**
   * Records a new item with its first parent and returns the path to store with it: below its
   * parent when the parent's path is stored or assumed, or can be from `ancestors` (the item's
   * ancestors from the top down, its parent last); otherwise null, to be worked out by `placeAll`.
   */
  create(id: string, rid: number, parent: string | undefined, ancestors?: readonly string[]): string | null {
    const path =
      parent === undefined
        ? ''
        : (this.pathBelowPlaced(parent) ?? this.pathBelowAssumed(id, parent, ancestors) ?? null);
    this.firstCreated = Math.min(rid, this.firstCreated ?? rid);
    if (path === null) this.leftUnplaced = true;
    this.checkAssumption(id, path);
    // Known before the row is stored (the writer inserts rows in batches): children in the same
    // batch are placed below it at once.
    this.remember(id, path ?? undefined);
    return path;
  }

  /** The item's first parent may have changed (its edges did): it follows its new parent. */
  parentChanged(id: string): void {
    // One not placed yet is placed from its edges as they are then.
    if (this.statement(SELECT_PATH, 'pluck').get(id) !== null) this.refresh(id);
  }

  /** A deleted item is no longer to be placed. */
  deleted(): void {
    this.storedPaths.clear();
  }

  /** As `placeAll`, for every item at or above rid `first` without a path, however it came to be. */
  placeFrom(first: number): void {
    this.firstCreated = Math.min(first, this.firstCreated ?? first);
    this.leftUnplaced = true;
    this.placeAll();
  }

  /**
   * Stores the paths still missing, then moves the items that hang below the bare key of an item
   * created since the last call below that item's path. Afterwards every stored path is current.
   */
  placeAll(): void {
    if (this.firstCreated === undefined) return;
    const first = this.firstCreated;
    this.firstCreated = undefined;
    this.storedPaths.clear();
    this.unplaceFailedAssumptions(first);
    // Reading the new rows for a missing path finds none when every item came placed.
    if (this.leftUnplaced) this.placeMissing(first);
    this.leftUnplaced = false;
    for (const id of this.withOrphans(first)) this.movePaths(id, '', this.storedPath(id) ?? '');
  }

  /** Stores the paths still missing among the items created since rid `first`. */
  private placeMissing(first: number): void {
    this.placeNewestFirst(first);
    const cacheSize = this.statement(CACHE_SIZE, 'pluck').get() as number;
    this.statement(`${CACHE_SIZE} = -${PLACING_CACHE_KIB}`).run();
    try {
      for (const sql of CREATE_UNPLACED) this.statement(sql).run();
      this.statement(FIND_UNPLACED).run(first);
      this.statement(PLACE_UNPLACED).run({ separator: PATH_SEPARATOR });
      this.statement(FORGET_UNPLACED).run();
    } finally {
      this.statement(`${CACHE_SIZE} = ${cacheSize}`).run();
    }
    this.assertAllPlaced(first);
  }

  /**
   * Places what it can of the items created since rid `first`, newest first, each below its
   * parent once the parent's path is known: an EAD stream writes a unit after its children, so
   * newest first is parents first, and one read of the new rows places them all, faster than
   * `PLACE_UNPLACED` does. An item whose parent is placed later, or is
   * not written, or whose path would name itself, is left to that statement.
   */
  private placeNewestFirst(first: number): void {
    const page = this.statement(UNPLACED_NEWEST_FIRST, 'raw');
    const placed: unknown[] = [];
    const store = () => {
      runInRows((sql) => this.statement(sql), setPaths, PATH_WIDTH, placed);
      placed.length = 0;
    };
    let rows: [number, string, string | null][];
    for (let before = Number.MAX_SAFE_INTEGER; ; before = rows[rows.length - 1][0]) {
      rows = page.all({ first, before }) as typeof rows;
      if (rows.length === 0) break;
      for (const [rid, id, parent] of rows) {
        // A parent not remembered is read from the rows: those placed so far are stored first.
        if (parent !== null && !this.storedPaths.has(parent)) store();
        const path = parent === null ? '' : this.pathBelowPlaced(parent);
        if (path === undefined || pathContains(path, id)) continue;
        this.remember(id, path);
        placed.push(rid, path);
      }
      store();
    }
  }

  /**
   * The path of the children of `parentId` when its path is assumed, or else from the chain of
   * `ancestors` (its last `parentId`): up to the nearest one whose path is known, then down again,
   * assuming the paths of those in between. Undefined without such a chain, or past `ASSUMED_PATHS`.
   */
  private pathBelowAssumed(
    id: string,
    parentId: string,
    ancestors: readonly string[] | undefined,
  ): string | undefined {
    let path = this.pathBelowAssumedOnly(parentId);
    if (path === undefined) {
      if (ancestors === undefined || ancestors[ancestors.length - 1] !== parentId) return undefined;
      let top = ancestors.length - 1;
      while (path === undefined && --top >= 0) {
        path = this.pathBelowAssumedOnly(ancestors[top]) ?? this.pathBelowPlaced(ancestors[top]);
      }
      const assuming = this.assumedPaths.size + this.failedAssumptions.length + ancestors.length;
      if (path === undefined || assuming > ASSUMED_PATHS) return undefined;
      for (const ancestor of ancestors.slice(top + 1)) {
        if (pathContains(path, ancestor)) return undefined;
        this.assumedPaths.set(ancestor, path);
        path = pathBelow(path, ancestor);
      }
    }
    return pathContains(path, id) ? undefined : path;
  }

  private pathBelowAssumedOnly(itemId: string): string | undefined {
    const assumed = this.assumedPaths.get(itemId);
    return assumed === undefined ? undefined : pathBelow(assumed, itemId);
  }

  /** An item created with a path assumed for it keeps its descendants' paths if the two agree. */
  private checkAssumption(id: string, path: string | null): void {
    const assumed = this.assumedPaths.get(id);
    if (assumed === undefined) return;
    this.assumedPaths.delete(id);
    if (path !== assumed) this.failedAssumptions.push([id, assumed]);
  }

  /**
   * Clears the paths of the items created since rid `first` below an ancestor whose assumed path
   * did not hold or is not confirmed yet (it was not created): `placeMissing` places them afresh.
   */
  private unplaceFailedAssumptions(first: number): void {
    const failed = [...this.failedAssumptions, ...this.assumedPaths];
    this.failedAssumptions.length = 0;
    this.assumedPaths.clear();
    for (const [id, path] of failed) {
      const { from, to } = pathRange(pathBelow(path, id));
      if (this.statement(UNPLACE_BELOW).run({ first, from, to }).changes > 0) this.leftUnplaced = true;
    }
  }

  /** The path of the children of `parentId`, if it is placed. */
  private pathBelowPlaced(parentId: string): string | undefined {
    const parentPath = this.storedPath(parentId);
    return parentPath === undefined ? undefined : pathBelow(parentPath, parentId);
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
   * Throws if an item created since rid `first` is left without a path: naming one whose ancestors
   * run in a loop, or one whose path would name itself.
   */
  private assertAllPlaced(first: number): void {
    let node = this.statement(FIRST_UNPLACED, 'pluck').get(first) as string | undefined;
    if (node === undefined) return;
    const chain = new Set<string>();
    for (;;) {
      chain.add(node);
      const parent = this.parentOf(node);
      if (parent === undefined || this.statement(SELECT_PATH, 'pluck').get(parent) !== null) break;
      node = parent;
      if (chain.has(parent)) break;
    }
    throw new Error(`${node} cannot be placed below itself`);
  }

  /**
   * The items created since rid `first` that others hang below by their bare key, written before
   * them: those others move below the item's path. One query answers for all of them, and stays
   * true while they move: a move rewrites only paths that start with the moved item's bare key, to
   * start with its own path, which starts with another's bare key only if that one had orphans
   * already.
   */
  private withOrphans(first: number): string[] {
    return this.statement(WITH_ORPHANS, 'pluck').all({
      first,
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

  private storedPath(itemId: string): string | undefined {
    if (this.storedPaths.has(itemId)) return this.storedPaths.get(itemId);
    const path = (this.statement(SELECT_PATH, 'pluck').get(itemId) as string | null | undefined) ?? undefined;
    this.remember(itemId, path);
    return path;
  }

  private remember(itemId: string, path: string | undefined): void {
    if (this.storedPaths.size >= REMEMBERED_PATHS) this.storedPaths.clear();
    this.storedPaths.set(itemId, path);
  }

  private parentOf(itemId: string): string | undefined {
    return (this.statement(SELECT_PARENT_ID, 'pluck').get({ item: itemId }) as string | null) ?? undefined;
  }
}

/** Works out every item's path afresh, after a migration that left them all without one. */
export function placeEveryItem(statements: StatementCache): void {
  const placement = new ItemPlacement((sql, mode) => statements.get(sql, mode));
  placement.placeFrom(0);
}
