import { ItemWrite, RecordNode, StoredItem } from '../graph-store';
import { Bundle, PropValue, Props } from '../../items/bundle';
import {
  DEPENDENT_RELATIONS,
  DEPENDENT_TYPES,
  DependentRelation,
  DependentType,
  ITEM_TYPES,
  ItemEdgeType,
  ItemType,
} from '../../items/item-types';
import { searchableText } from '../../items/search-text';
import {
  DEPENDENT_BOOKKEEPING,
  HASH,
  ID,
  IDENTIFIERS,
  ITEM_BOOKKEEPING,
  NAMES,
  OWNER,
  RECORD_BOOKKEEPING,
  SCOPE_AND_CONTENT,
  TEXT,
  TITLES,
  TYPE,
  UPDATED,
} from './graph-model';
import { indexedWords } from './search-words';

/**
 * Bundles to the flat rows the batch statements UNWIND, and nodes and relationships read back to
 * bundles. Pure functions: everything here is tested without a server.
 */

/** The node property map of an item, with its bookkeeping. */
export interface ItemRow {
  type: ItemType;
  props: Props;
}

export interface DependentRow {
  type: DependentType;
  props: Props;
}

/** A relationship inside a bundle; `parent` is absent when the parent is the item itself. */
export interface DependentLinkRow {
  relation: DependentRelation;
  owner: string;
  parent?: string;
  child: string;
}

export interface FlatBundle {
  item: ItemRow;
  dependents: DependentRow[];
  links: DependentLinkRow[];
}

export function flattenItem(write: ItemWrite): FlatBundle {
  const { bundle } = write;
  const type = itemType(bundle.type);
  const search = searchableText(bundle);
  const item: ItemRow = {
    type,
    props: withBookkeeping(bundle.data, ITEM_BOOKKEEPING, {
      [ID]: bundle.id,
      [TYPE]: type,
      [HASH]: write.hash,
      [NAMES]: indexedWords(search.names),
      [TEXT]: indexedWords(search.text),
      [TITLES]: indexedWords(search.titles),
      [IDENTIFIERS]: indexedWords(search.identifiers),
      [SCOPE_AND_CONTENT]: indexedWords(search.scopeAndContent),
    }),
  };
  const dependents: DependentRow[] = [];
  const links: DependentLinkRow[] = [];
  const visit = (parent: Bundle, parentId: string | undefined) => {
    for (const [relation, children] of relationEntries(parent)) {
      for (const child of children) {
        const childType = dependentType(child.type);
        dependents.push({
          type: childType,
          props: withBookkeeping(child.data, DEPENDENT_BOOKKEEPING, {
            [ID]: child.id,
            [TYPE]: childType,
            [OWNER]: bundle.id,
          }),
        });
        links.push({ relation, owner: bundle.id, child: child.id, ...(parentId && { parent: parentId }) });
        visit(child, child.id);
      }
    }
  };
  visit(bundle, undefined);
  return { item, dependents, links };
}

/** A record's node properties. */
export function recordProps(id: string, type: string, props: Props): Props {
  return withBookkeeping(props, RECORD_BOOKKEEPING, { [ID]: id, [TYPE]: type });
}

function withBookkeeping(data: Props, reserved: readonly string[], bookkeeping: Props): Props {
  const clash = Object.keys(data).find((key) => reserved.includes(key));
  if (clash !== undefined) throw new Error(`Property "${clash}" is reserved by the Neo4j store`);
  return { ...data, ...bookkeeping };
}

function relationEntries(bundle: Bundle): [DependentRelation, Bundle[]][] {
  return Object.entries(bundle.relations) as [DependentRelation, Bundle[]][];
}

function itemType(type: string): ItemType {
  if (!(ITEM_TYPES as readonly string[]).includes(type)) throw new Error(`Not an item type: ${type}`);
  return type as ItemType;
}

function dependentType(type: string): DependentType {
  if (!(DEPENDENT_TYPES as readonly string[]).includes(type))
    throw new Error(`Not a dependent type: ${type}`);
  return type as DependentType;
}

// ---- reading -----------------------------------------------------------------------------------

/** What the driver gives for a node and a relationship (structurally its `Node`, `Relationship`). */
export interface GraphNode {
  elementId: string;
  properties: Record<string, unknown>;
}

export interface GraphLink {
  type: string;
  startNodeElementId: string;
  endNodeElementId: string;
}

export interface StoredItemRow {
  item: GraphNode;
  dependents: GraphNode[];
  links: GraphLink[];
  edges: { type: ItemEdgeType; target: string }[];
}

export function storedItem({ item, dependents, links, edges }: StoredItemRow): StoredItem {
  const root = bundleOf(item, ITEM_BOOKKEEPING);
  const byElementId = new Map<string, Bundle>([[item.elementId, root]]);
  for (const dependent of dependents)
    byElementId.set(dependent.elementId, bundleOf(dependent, DEPENDENT_BOOKKEEPING));
  for (const link of links) attach(link, byElementId);
  sortDependents(root);
  return {
    bundle: root,
    edges: edgeLists(edges),
    hash: String(item.properties[HASH]),
    updated: String(item.properties[UPDATED]),
  };
}

export function recordFromNode(node: GraphNode): RecordNode {
  return {
    id: String(node.properties[ID]),
    type: String(node.properties[TYPE]),
    props: dataOf(node.properties, RECORD_BOOKKEEPING),
  };
}

/** The data of a node: its properties without bookkeeping. */
function dataOf(properties: Record<string, unknown>, bookkeeping: readonly string[]): Props {
  return Object.fromEntries(
    Object.entries(properties).filter(([key]) => !bookkeeping.includes(key)),
  ) as Record<string, PropValue>;
}

function bundleOf(node: GraphNode, bookkeeping: readonly string[]): Bundle {
  return {
    id: String(node.properties[ID]),
    type: node.properties[TYPE] as Bundle['type'],
    data: dataOf(node.properties, bookkeeping),
    relations: {},
  };
}

function attach(link: GraphLink, byElementId: Map<string, Bundle>): void {
  const relation = link.type as DependentRelation;
  const outwards = DEPENDENT_RELATIONS[relation] === 'out';
  const parent = byElementId.get(outwards ? link.startNodeElementId : link.endNodeElementId);
  const child = byElementId.get(outwards ? link.endNodeElementId : link.startNodeElementId);
  if (parent && child) (parent.relations[relation] ??= []).push(child);
}

/** The port keeps no order among dependents; id order makes reads repeatable. */
function sortDependents(bundle: Bundle): void {
  for (const children of Object.values(bundle.relations)) {
    children.sort((a, b) => compareText(a.id, b.id));
    children.forEach(sortDependents);
  }
}

function edgeLists(edges: StoredItemRow['edges']): StoredItem['edges'] {
  const targetsByType = new Map<ItemEdgeType, Set<string>>();
  for (const { type, target } of edges) {
    if (!targetsByType.has(type)) targetsByType.set(type, new Set());
    targetsByType.get(type)!.add(target);
  }
  return Object.fromEntries(
    [...targetsByType].map(([type, targets]) => [type, [...targets].sort(compareText)]),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
