import { Bundle, PropValue } from './bundle';
import { sameContent } from './change-detection';
import { DependentRelation, ItemEdgeType } from './item-types';
import { MANAGED_PREFIX } from './ontology';

/** A dependent node as a change shows it: what it is, without its generated id. */
export interface DependentValue {
  type: string;
  data: Record<string, PropValue>;
  relations?: Partial<Record<DependentRelation, DependentValue[]>>;
}

export type ChangeValue = PropValue | DependentValue | string[];

/**
 * One difference between what was stored and what an update writes. `path` names where: a data
 * field (`name`), a dependent (`describes[nl-r1-x.eng]`), a field of one (`describes[…].title`),
 * deeper ones alike, or an item-level edge type (`edges.heldBy`).
 */
export interface FieldChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: ChangeValue;
  after?: ChangeValue;
}

/** What an update changed in one item. */
export interface ItemChanges {
  item: string;
  type: string;
  changes: FieldChange[];
}

type Edges = Partial<Record<ItemEdgeType, string[]>>;

/**
 * The differences between an item as stored and as an update writes it, compared as change
 * detection compares them (managed `_` keys and dependents' ids play no part), so that every
 * update an import reports has at least one entry here. Dependents are paired first by equal
 * content (those are unchanged), then by id (changed in place), and the rest are added or removed.
 */
export function itemChanges(
  before: { bundle: Bundle; edges: Edges },
  after: { bundle: Bundle; edges?: Edges },
): ItemChanges {
  const changes: FieldChange[] = [];
  compareBundles(before.bundle, after.bundle, '', changes);
  if (after.edges !== undefined) compareEdges(before.edges, after.edges, changes);
  return { item: after.bundle.id, type: after.bundle.type, changes };
}

function compareBundles(before: Bundle, after: Bundle, prefix: string, changes: FieldChange[]): void {
  const keys = new Set([...Object.keys(before.data), ...Object.keys(after.data)]);
  for (const key of [...keys].sort()) {
    if (key.startsWith(MANAGED_PREFIX)) continue;
    const path = `${prefix}${key}`;
    // Own keys only: a field named like an object property (`constructor`) is absent where unset.
    const old = Object.hasOwn(before.data, key) ? before.data[key] : undefined;
    const now = Object.hasOwn(after.data, key) ? after.data[key] : undefined;
    if (old === undefined) changes.push({ path, change: 'added', after: now });
    else if (now === undefined) changes.push({ path, change: 'removed', before: old });
    else if (!sameValue(old, now)) changes.push({ path, change: 'changed', before: old, after: now });
  }
  const relations = new Set([...Object.keys(before.relations), ...Object.keys(after.relations)]);
  for (const relation of [...relations].sort() as DependentRelation[]) {
    compareDependents(
      before.relations[relation] ?? [],
      after.relations[relation] ?? [],
      `${prefix}${relation}`,
      changes,
    );
  }
}

function compareDependents(
  before: readonly Bundle[],
  after: readonly Bundle[],
  path: string,
  changes: FieldChange[],
): void {
  const removed = [...before];
  const added: Bundle[] = [];
  for (const dependent of after) {
    const equal = removed.findIndex((old) => sameContent(old, dependent));
    if (equal >= 0) removed.splice(equal, 1);
    else added.push(dependent);
  }
  for (const dependent of [...added]) {
    const sameId = removed.findIndex((old) => old.id === dependent.id && old.type === dependent.type);
    if (sameId < 0) continue;
    compareBundles(removed[sameId], dependent, `${path}[${dependent.id}].`, changes);
    removed.splice(sameId, 1);
    added.splice(added.indexOf(dependent), 1);
  }
  for (const old of removed)
    changes.push({ path: `${path}[${old.id}]`, change: 'removed', before: valueOf(old) });
  for (const now of added) changes.push({ path: `${path}[${now.id}]`, change: 'added', after: valueOf(now) });
}

function compareEdges(before: Edges, after: Edges, changes: FieldChange[]): void {
  for (const type of (Object.keys(after) as ItemEdgeType[]).sort()) {
    const old = [...(before[type] ?? [])].sort();
    const now = [...(after[type] ?? [])].sort();
    if (sameValue(old, now)) continue;
    const path = `edges.${type}`;
    if (old.length === 0) changes.push({ path, change: 'added', after: now });
    else if (now.length === 0) changes.push({ path, change: 'removed', before: old });
    else changes.push({ path, change: 'changed', before: old, after: now });
  }
}

function sameValue(a: PropValue | string[], b: PropValue | string[]): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, index) => value === b[index]);
  }
  return a === b;
}

function valueOf(bundle: Bundle): DependentValue {
  const data = Object.fromEntries(
    Object.entries(bundle.data).filter(([key]) => !key.startsWith(MANAGED_PREFIX)),
  );
  const value: DependentValue = { type: bundle.type, data };
  const relations = Object.entries(bundle.relations).filter(([, dependents]) => dependents.length > 0);
  if (relations.length > 0) {
    value.relations = Object.fromEntries(
      relations.map(([relation, dependents]) => [relation, dependents.map(valueOf)]),
    );
  }
  return value;
}
