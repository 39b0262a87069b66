import type { SubtreeEntry } from '../../graph/graph-store';

const UNIT_TYPE = 'DocumentaryUnit';

/** A unit below a finding aid's root, in the order it is written, and its depth (the root's is 0). */
export interface Placed {
  id: string;
  depth: number;
}

/** Reads the children of `parentIds`, at most `limit` of each after the id `after` (`GraphReader.children`). */
export type ChildReader = (
  parentIds: readonly string[],
  after: string | undefined,
  limit: number,
) => Promise<Map<string, SubtreeEntry[]>>;

export interface WalkSizes {
  /** Siblings held at a time: a unit with more children is read again for each next window of them. */
  window: number;
  /** Children asked for in one read of a wide unit's. */
  page: number;
  /** Units whose children are read ahead together, in one read. */
  parents: number;
  /** Children of one unit read ahead at most; a unit with more is read on its own, in windows. */
  perParent: number;
  /** Units read ahead at most before the walk goes on, however many levels they fill. */
  ahead: number;
}

export const WALK_SIZES: WalkSizes = { window: 1000, page: 1000, parents: 250, perParent: 40, ahead: 2000 };

const byIdentifier = new Intl.Collator('en', { numeric: true });

/** The order of siblings in a finding aid: by local id as a reader sorts them (numbers by value), then id. */
export function siblingOrder(a: SubtreeEntry, b: SubtreeEntry): number {
  return byIdentifier.compare(a.localId, b.localId) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Siblings being written: a window of a unit's children, and whether more of them follow it. */
interface Level {
  parentId: string;
  depth: number;
  entries: SubtreeEntry[];
  next: number;
  more: boolean;
}

/**
 * The units below `rootId`, depth first, each unit's children in `siblingOrder`, read a level at a
 * time: what it holds is a window of siblings on each level of the path it is on and the children
 * it has read ahead, never the whole subtree, so a finding aid of any size is walked in bounded
 * memory. Units other than documentary units are left out with everything below them.
 */
export async function* unitsBelow(
  rootId: string,
  read: ChildReader,
  sizes: WalkSizes = WALK_SIZES,
): AsyncGenerator<Placed> {
  /** Children read ahead, sorted; null for a unit with more than `perParent`, read in windows. */
  const ahead = new Map<string, SubtreeEntry[] | null>();

  /** The window of `parentId`'s children that follows `after`, from a read of all its children. */
  const windowAfter = async (parentId: string, depth: number, after?: SubtreeEntry): Promise<Level> => {
    let kept: SubtreeEntry[] = [];
    for (let cursor: string | undefined; ;) {
      const page = (await read([parentId], cursor, sizes.page)).get(parentId) ?? [];
      for (const entry of page) {
        if (entry.type === UNIT_TYPE && (after === undefined || siblingOrder(entry, after) > 0))
          kept.push(entry);
      }
      // One more than a window is kept: it tells whether another window follows.
      if (kept.length > 2 * sizes.window) kept = kept.sort(siblingOrder).slice(0, sizes.window + 1);
      if (page.length < sizes.page) break;
      cursor = page[page.length - 1].id;
    }
    kept.sort(siblingOrder);
    const more = kept.length > sizes.window;
    return { parentId, depth, entries: kept.slice(0, sizes.window), next: 0, more };
  };

  /** The first window of `parentId`'s children, from those read ahead where they were. */
  const levelBelow = async (parentId: string, depth: number): Promise<Level> => {
    const listed = ahead.get(parentId);
    ahead.delete(parentId);
    if (listed === undefined || listed === null) return windowAfter(parentId, depth);
    return { parentId, depth, entries: listed, next: 0, more: false };
  };

  /** Reads ahead the children of `parentIds`, and theirs while a level fits in one read. */
  const readAhead = async (parentIds: string[]): Promise<void> => {
    let counted = 0;
    for (let level = parentIds; level.length > 0 && level.length <= sizes.parents && counted < sizes.ahead;) {
      const listed = await read(level, undefined, sizes.perParent);
      const below: string[] = [];
      for (const parentId of level) {
        const entries = listed.get(parentId) ?? [];
        if (entries.length >= sizes.perParent) {
          ahead.set(parentId, null);
          continue;
        }
        const units = entries.filter((entry) => entry.type === UNIT_TYPE).sort(siblingOrder);
        ahead.set(parentId, units);
        counted += units.length;
        for (const unit of units) below.push(unit.id);
      }
      level = below;
    }
  };

  const stack: Level[] = [await windowAfter(rootId, 1)];
  while (stack.length > 0) {
    const level = stack[stack.length - 1];
    if (level.next === level.entries.length) {
      stack.pop();
      if (level.more)
        stack.push(await windowAfter(level.parentId, level.depth, level.entries[level.next - 1]));
      continue;
    }
    const entry = level.entries[level.next++];
    yield { id: entry.id, depth: level.depth };
    if (!ahead.has(entry.id)) {
      const siblings = level.entries.slice(level.next - 1, level.next - 1 + sizes.parents);
      await readAhead(siblings.map((sibling) => sibling.id).filter((id) => !ahead.has(id)));
    }
    stack.push(await levelBelow(entry.id, level.depth + 1));
  }
}
