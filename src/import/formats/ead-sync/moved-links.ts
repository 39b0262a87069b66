import { GraphWriter } from '../../../graph/graph-store';
import { Bundle } from '../../../items/bundle';
import { ItemEdgeType } from '../../../items/item-types';
import { ACCESS_POINT_TYPE, NAME } from '../../../items/ontology';

interface AccessPointKey {
  id: string;
  /** Type and name: what makes two items' access points the same one. */
  key: string;
}

function accessPoints(item: Bundle): AccessPointKey[] {
  return (item.relations.describes ?? []).flatMap((description) =>
    (description.relations.relatesTo ?? []).map((accessPoint) => ({
      id: accessPoint.id,
      key: JSON.stringify([accessPoint.data[ACCESS_POINT_TYPE], accessPoint.data[NAME]]),
    })),
  );
}

/** Pairs each access point of `from` with the first one of `to` of the same type and name. */
export function matchAccessPoints(from: Bundle, to: Bundle): [string, string][] {
  const targets = new Map<string, string>();
  for (const { id, key } of accessPoints(to)) if (!targets.has(key)) targets.set(key, id);
  return accessPoints(from).flatMap(({ id, key }): [string, string][] => {
    const target = targets.get(key);
    return target === undefined ? [] : [[id, target]];
  });
}

/** The edges that follow a moved unit: links to it, and links made from its access points. */
async function followingEdges(
  store: GraphWriter,
  from: string,
  to: string,
): Promise<[string, string, ItemEdgeType][]> {
  const items = await store.getItems([from, to]);
  const [old, current] = [items.get(from), items.get(to)];
  if (old === undefined || current === undefined) {
    throw new Error(`A moved unit is missing: ${from} → ${to}`);
  }
  return [
    [from, to, 'hasLinkTarget'],
    ...matchAccessPoints(old.bundle, current.bundle).map(
      ([oldPoint, newPoint]): [string, string, ItemEdgeType] => [oldPoint, newPoint, 'hasLinkBody'],
    ),
  ];
}

/**
 * Points the links of each moved unit (old id → new id) at its new place, before the old one is
 * deleted; returns the ids of the links changed.
 */
export async function moveLinks(store: GraphWriter, moved: Record<string, string>): Promise<string[]> {
  const links = new Set<string>();
  for (const [from, to] of Object.entries(moved)) {
    for (const [oldEnd, newEnd, type] of await followingEdges(store, from, to)) {
      for (const link of await store.incoming(oldEnd, type)) links.add(link);
      await store.retargetEdges(oldEnd, newEnd, type);
    }
  }
  return [...links].sort();
}
