import { SubtreeEntry } from '../../../graph/graph-store';
import { ImportInputError } from '../format-reader';

/** What a sync does besides the import: the reference's `SyncLog` without the import log. */
export interface SyncPlan {
  /** Units the import created, except the new places of moved units. */
  created: string[];
  /** Units of the sync scope the incoming data no longer has, except moved ones. */
  deleted: string[];
  /** Old id → new id of units whose local id now appears under another parent. */
  moved: Record<string, string>;
}

/** The sync scope after the import, and what the import did. */
export interface SyncState {
  /** The documentary units of the sync scope, parents first. */
  units: readonly SubtreeEntry[];
  /** Ids the incoming data produced, whatever happened to them. */
  produced: ReadonlySet<string>;
  /** Ids the import created: every other unit of the scope existed before it. */
  created: ReadonlySet<string>;
  /** Units the sync must leave as they are (`ex`, see `keptUnits`). */
  kept: ReadonlySet<string>;
}

/** A local id held by more than one unit, with those units' ids. */
interface NonUniqueLocalId {
  localId: string;
  ids: readonly string[];
}

/** The 400 a sync fails with when local ids cannot tell its units apart. */
function nonUniqueLocalIds(duplicates: readonly NonUniqueLocalId[]): ImportInputError {
  const named = duplicates.map(({ localId, ids }) => `${localId} (${ids.join(', ')})`);
  return new ImportInputError(`Local identifiers are not unique in the sync scope: ${named.join('; ')}`);
}

/**
 * The units the sync leaves alone: the `ex` ids with their descendants, as the issue asks, and
 * the ancestors of those, which hold them (deleting one would leave an excluded unit without
 * its parent).
 */
export function keptUnits(units: readonly SubtreeEntry[], excluded: ReadonlySet<string>): Set<string> {
  const kept = new Set<string>();
  for (const unit of units) {
    if (excluded.has(unit.id) || kept.has(unit.parentId)) kept.add(unit.id);
  }
  const byId = new Map(units.map((unit) => [unit.id, unit]));
  for (const id of excluded) {
    for (let parent = byId.get(byId.get(id)?.parentId ?? ''); parent; parent = byId.get(parent.parentId)) {
      kept.add(parent.id);
    }
  }
  return kept;
}

/** A local id's units: those that were there before the import, and those it produced. */
interface LocalIdUnits {
  before: string[];
  incoming: string[];
}

function byLocalId(state: SyncState): Map<string, LocalIdUnits> {
  const groups = new Map<string, LocalIdUnits>();
  for (const { id, localId } of state.units) {
    let group = groups.get(localId);
    if (group === undefined) groups.set(localId, (group = { before: [], incoming: [] }));
    if (!state.created.has(id)) group.before.push(id);
    if (state.produced.has(id)) group.incoming.push(id);
  }
  return groups;
}

/** The old unit a local id's new unit replaces, when the local id now has another place. */
function movedFrom({ before, incoming }: LocalIdUnits): string | undefined {
  const [old] = before;
  const [current] = incoming;
  return old !== undefined && current !== undefined && old !== current ? old : undefined;
}

/**
 * Whether a local id names one unit before and one after the import. A kept unit's local id
 * turning up elsewhere is not unique either: a kept unit does not move.
 */
function isUnique(group: LocalIdUnits, kept: ReadonlySet<string>): boolean {
  if (group.before.length > 1 || group.incoming.length > 1) return false;
  const from = movedFrom(group);
  return from === undefined || !kept.has(from);
}

/**
 * Works out a sync as the reference's `EadSync` does: units of the scope that the incoming data
 * did not produce are deleted, unless kept; a local id found under a new parent is a move.
 * Throws (400) when local ids are not unique in the scope.
 */
export function planSync(state: SyncState): SyncPlan {
  const moved = new Map<string, string>();
  const duplicates: NonUniqueLocalId[] = [];
  for (const [localId, group] of byLocalId(state)) {
    if (!isUnique(group, state.kept)) {
      duplicates.push({ localId, ids: [...new Set([...group.before, ...group.incoming])].sort() });
      continue;
    }
    const from = movedFrom(group);
    if (from !== undefined) moved.set(from, group.incoming[0]);
  }
  if (duplicates.length > 0) throw nonUniqueLocalIds(duplicates);
  const targets = new Set(moved.values());
  const deleted = state.units
    .map((unit) => unit.id)
    .filter((id) => !state.produced.has(id) && !state.kept.has(id) && !moved.has(id));
  return {
    created: [...state.created].filter((id) => !targets.has(id)).sort(),
    deleted: deleted.sort(),
    moved: Object.fromEntries(moved),
  };
}
