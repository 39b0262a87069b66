import { AccessPointMatch, StoredItem } from '../../../graph/graph-store';
import { TableRow } from '../../parsing/tabular/table-rows';

/** A row of a coreference table: access points with this label are to be linked to the target. */
export interface Coreference {
  row: number;
  label: string;
  target: string;
}

/** A row read as a coreference, or what is wrong with it. */
export type CoreferenceRow = Coreference | { row: number; problem: string };

const COLUMNS = 2;

/** A table row as a coreference (the reference's columns: access point label, target id). */
export function coreferenceRow({ row, cells }: TableRow): CoreferenceRow {
  if (cells.length !== COLUMNS) {
    return {
      row,
      problem: `a coreference row has ${COLUMNS} columns (access point label, target ID), this one has ${cells.length}`,
    };
  }
  const [label, target] = cells;
  if (label === '') return { row, problem: 'the access point label (column 1) is empty' };
  if (target === '') return { row, problem: 'the target ID (column 2) is empty' };
  return { row, label, target };
}

/** The access points of one item to link to one target, and the label that matched first. */
export interface CoreferenceGroup {
  itemId: string;
  target: string;
  label: string;
  accessPoints: string[];
}

/**
 * The links the coreferences call for: per item in the scope and target, the item's access
 * points whose label is coreferenced to that target. An access point of the target itself is
 * not linked to it.
 */
export function coreferenceGroups(
  coreferences: readonly Coreference[],
  matches: readonly AccessPointMatch[],
): CoreferenceGroup[] {
  const targetsOf = new Map<string, Set<string>>();
  for (const { label, target } of coreferences) {
    targetsOf.set(label, (targetsOf.get(label) ?? new Set()).add(target));
  }
  const groups = new Map<string, CoreferenceGroup>();
  for (const match of matches) {
    for (const target of targetsOf.get(match.name) ?? []) {
      if (target === match.itemId) continue;
      const key = JSON.stringify([match.itemId, target]);
      const group = groups.get(key) ?? { itemId: match.itemId, target, label: match.name, accessPoints: [] };
      group.accessPoints.push(match.accessPointId);
      groups.set(key, group);
    }
  }
  return [...groups.values()]
    .map((group) => ({ ...group, accessPoints: [...new Set(group.accessPoints)].sort() }))
    .sort((a, b) => (a.itemId + '\n' + a.target).localeCompare(b.itemId + '\n' + b.target));
}

/**
 * The existing link between a group's item and its target that takes its access points (the
 * reference adds them to such a link rather than making another): one that already has some of
 * them as bodies, else the first. `links` are the links to the group's item.
 */
export function linkForGroup(group: CoreferenceGroup, links: readonly StoredItem[]): StoredItem | undefined {
  const toTarget = links
    .filter((link) => link.edges.hasLinkTarget?.includes(group.target))
    .sort((a, b) => a.bundle.id.localeCompare(b.bundle.id));
  const withBody = toTarget.find((link) =>
    (link.edges.hasLinkBody ?? []).some((body) => group.accessPoints.includes(body)),
  );
  return withBody ?? toTarget[0];
}
