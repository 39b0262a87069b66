import { Bundle, Props } from '../../items/bundle';
import { DEPENDENT_RELATIONS, DependentRelation, NodeType } from '../../items/item-types';

/**
 * Dependent nodes are rows of the `dependent` table, numbered by the item that owns them: the
 * dependents of the item with rid r have rids r * 2^20 + position, positions in pre-order (a node
 * before the nodes that hang from it). So an item's dependents are one range of the table's own
 * key, read, replaced and deleted without an index of owners. A row names the node it hangs from
 * by position (`parent`; null for the item itself) and the relation that ties it there. An access
 * point's row also holds its name in a column of its own, to be found by.
 */
export const POSITION_BITS = 20;
const POSITIONS_PER_ITEM = 2 ** POSITION_BITS;

/** `rid, id, type, parent, relation, props, name`, the columns in table order. */
export type DependentRow = [
  number,
  string,
  NodeType,
  number | null,
  DependentRelation,
  string,
  string | null,
];

export const DEPENDENT_COLUMNS = 'rid, id, type, parent, relation, props, name';

/** The half-open rid range of an item's dependents. */
export function dependentRange(itemRid: number): { first: number; end: number } {
  return { first: itemRid * POSITIONS_PER_ITEM, end: (itemRid + 1) * POSITIONS_PER_ITEM };
}

/** The rows of an item's dependents, parents first. */
export function dependentRows(item: Bundle, itemRid: number): DependentRow[] {
  const rows: DependentRow[] = [];
  const first = itemRid * POSITIONS_PER_ITEM;
  const visit = (node: Bundle, position: number | null): void => {
    for (const [relation, children] of Object.entries(node.relations) as [DependentRelation, Bundle[]][]) {
      if (!DEPENDENT_RELATIONS[relation])
        throw new Error(`"${relation}" is not a dependent relation (node ${node.id})`);
      for (const child of children) {
        const childPosition = rows.length;
        if (childPosition === POSITIONS_PER_ITEM)
          throw new Error(`${item.id} has more than ${POSITIONS_PER_ITEM} dependent nodes`);
        rows.push([
          first + childPosition,
          child.id,
          child.type,
          position,
          relation,
          JSON.stringify(child.data),
          accessPointName(child),
        ]);
        visit(child, childPosition);
      }
    }
  };
  visit(item, null);
  return rows;
}

function accessPointName(node: Bundle): string | null {
  return node.type === 'AccessPoint' && typeof node.data.name === 'string' ? node.data.name : null;
}

/** A dependent row with its props parsed. */
export type DependentNode = [
  rid: number,
  id: string,
  type: NodeType,
  parent: number | null,
  relation: DependentRelation,
  data: Props,
];

/** Hangs an item's dependents (in rid order, as a range read gives them) under its bundle. */
export function attachDependents(item: Bundle, dependents: readonly DependentNode[]): void {
  const nodes: Bundle[] = [];
  for (const [rid, id, type, parent, relation, data] of dependents) {
    const node: Bundle = { id, type, data, relations: {} };
    nodes[rid % POSITIONS_PER_ITEM] = node;
    const holder = parent === null ? item : nodes[parent];
    (holder.relations[relation] ??= []).push(node);
  }
}
