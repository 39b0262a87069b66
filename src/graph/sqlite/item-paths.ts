import type { SubtreeEntry } from '../graph-store';
import type { Database } from 'better-sqlite3';
import { hash } from 'node:crypto';
import { CHILD_EDGE_TYPES } from '../../items/item-types';

/**
 * Materialised ancestor paths. An item's path is its ancestors' keys, root first, each followed by
 * SEPARATOR; the items below X are those whose path starts with `path(X) + key(X) + SEPARATOR`,
 * which is one range of the path index. A key is a fixed-length digest of the id, not the id: an
 * id repeats its ancestors' local ids (docs/import-identifiers.md), so a path of ids would grow with the square
 * of the depth, and a path of keys grows with the depth alone.
 */
export const PATH_SEPARATOR = '\u001f';
/** The character after the separator: prefix-minus-separator + this bounds the range above. */
const AFTER_SEPARATOR = '\u0020';
/**
 * Characters of a key: 96 bits of SHA-1, in base64url (whose characters all sort above the
 * separator and the character after it). Two siblings' keys would have to collide for their
 * subtrees to mix, which no import can arrange.
 */
const KEY_LENGTH = 16;

/** An item's key in paths. */
export function pathKey(id: string): string {
  return hash('sha1', id, 'base64url').slice(0, KEY_LENGTH);
}

/** The SQL function `path_key(id)`, for the writer's statements that build paths. */
export function registerPathKey(db: Database): void {
  db.function('path_key', { deterministic: true }, (id: unknown) => pathKey(String(id)));
}

/** The path of the children of `parentId`, whose own path is `parentPath`. */
export function pathBelow(parentPath: string, parentId: string): string {
  return `${parentPath}${pathKey(parentId)}${PATH_SEPARATOR}`;
}

/** The half-open range of paths that start with `prefix` (which ends with the separator). */
export function pathRange(prefix: string): { from: string; to: string } {
  return { from: prefix, to: `${prefix.slice(0, -1)}${AFTER_SEPARATOR}` };
}

/** Whether `id` is one of the ancestors listed in `path`. */
export function pathContains(path: string, id: string): boolean {
  return `${PATH_SEPARATOR}${path}`.includes(`${PATH_SEPARATOR}${pathKey(id)}${PATH_SEPARATOR}`);
}

/**
 * The id of the parent of the item whose id `itemId` gives (SQL): the smallest target of the first
 * child edge type it has, the parent its path is below. One index lookup per type: an ORDER BY
 * over the types sorts each time.
 */
export const parentIdOf = (itemId: string) =>
  `coalesce(${CHILD_EDGE_TYPES.map((type) => `(SELECT min(dst) FROM edge WHERE src = ${itemId} AND type = '${type}')`).join(', ')})`;

/** Orders a subtree breadth first from its root; an item reached twice keeps its first parent. */
export function parentsFirst(rootId: string, rows: SubtreeEntry[]): SubtreeEntry[] {
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
