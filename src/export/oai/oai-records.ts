import { GraphReader, ItemListQuery } from '../../graph/graph-store';
import { tombstoneRepository } from '../../graph/records/tombstone-repository';
import { SetScope } from './oai-sets';
import { RecordCursor } from './oai-token';

/** An entry of a list of records: a unit, or a unit an import removed. */
export type ListEntry =
  | { status: 'live'; id: string; updated: string }
  | {
      status: 'deleted';
      id: string;
      removed: string;
      recordId: string;
      country?: string;
      repository?: string;
    };

/** What a list of records keeps: its set, its update times, whether top-level units only. */
export interface RecordFilter {
  scope?: SetScope;
  /** Bounds as the store's update times (`updateBounds`). */
  updated: { from?: string; until?: string };
  topLevelOnly: boolean;
}

/** A page of entries, and where the list goes on when more follow. */
export interface EntryPage {
  entries: ListEntry[];
  next?: RecordCursor;
}

/**
 * Up to `need` entries from `cursor` on: the units in id order, then the deletions in the order of
 * their tombstones, those whose unit exists again left out. `next` is given only when another
 * entry is known to follow, read ahead, so that no token leads to an empty page while the list
 * stays as it is.
 */
export async function entryPage(
  tx: GraphReader,
  filter: RecordFilter,
  cursor: RecordCursor,
  need: number,
): Promise<EntryPage> {
  const entries: ListEntry[] = [];
  if (cursor.phase === 'live') {
    const query: ItemListQuery = { type: 'DocumentaryUnit', limit: need + 1, updated: filter.updated };
    if (cursor.after !== undefined) query.after = cursor.after;
    if (filter.scope) query.below = filter.scope.below;
    if (filter.topLevelOnly) query.withEdge = 'heldBy';
    const listed = await tx.listItems(query);
    for (const item of listed) {
      if (entries.length === need) return { entries, next: { phase: 'live', after: entries[need - 1].id } };
      entries.push({ status: 'live', id: item.id, updated: item.updated });
    }
  }
  let after = cursor.phase === 'deleted' ? cursor.after : undefined;
  for (;;) {
    const found = await tombstoneRepository.list(tx, {
      ...(after === undefined ? {} : { after }),
      ...(filter.scope ? { place: filter.scope.tombstones } : {}),
      removed: filter.updated,
      limit: need + 1,
    });
    const { tombstones } = found;
    const existing = await tx.getTypes(tombstones.map(({ tombstone }) => tombstone.itemId));
    for (const { recordId, tombstone } of tombstones) {
      if (existing.has(tombstone.itemId)) continue;
      if (entries.length === need) {
        const last = entries[need - 1];
        return {
          entries,
          next: { phase: 'deleted', ...(last.status === 'deleted' ? { after: last.recordId } : {}) },
        };
      }
      entries.push({
        status: 'deleted',
        id: tombstone.itemId,
        removed: tombstone.removed,
        recordId,
        ...(tombstone.country === undefined ? {} : { country: tombstone.country }),
        ...(tombstone.repository === undefined ? {} : { repository: tombstone.repository }),
      });
    }
    if (found.next === undefined) return { entries };
    after = found.next;
  }
}
