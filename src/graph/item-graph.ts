import { Bundle } from '../items/bundle';
import { ItemEdgeType, ItemType } from '../items/item-types';

/** A stored main item: its bundle, its outgoing item-level edges and bookkeeping. */
export interface StoredItem {
  bundle: Bundle;
  /** Outgoing item-level edges by type, target ids sorted. */
  edges: Partial<Record<ItemEdgeType, string[]>>;
  /** The change-detection hash given when the item was last written. */
  hash: string;
  /** ISO 8601 time of the last write that changed the item. */
  updated: string;
}

/** What an import (or the CLI) writes for one main item. */
export interface ItemWrite {
  bundle: Bundle;
  /** `itemHash(bundle)` of the items domain, kept for fast unchanged detection. */
  hash: string;
  /**
   * Outgoing item-level edges. Each type named here replaces the item's existing edges of that
   * type; types not named are left as they are. An edge may name an item that does not exist yet;
   * it takes effect when that item is written later in the same transaction (or in a later one),
   * and reads see an edge only while both ends exist.
   */
  edges?: Partial<Record<ItemEdgeType, string[]>>;
}

/** Hints a store may use to write items sooner; never part of what is stored. */
export interface PutItemsOptions {
  /**
   * New items' ancestors from the top down, each item's parent (the target of its first child
   * edge) last, by item id, when the writer of the import knows them before they are all written
   * (an EAD stream writes a unit after its children): a store may use them to place an item at
   * once. A store checks them against the ancestors as they are written, and an item whose hint
   * does not hold is placed as without one.
   */
  ancestors?: ReadonlyMap<string, readonly string[]>;
}

export interface ItemRef {
  id: string;
  type: ItemType;
}

/** An item below a scope, for synchronisation. */
export interface SubtreeEntry extends ItemRef {
  /** The item's `identifier` (local id). */
  localId: string;
  /** The item it is a child of (parent unit, repository, …). */
  parentId: string;
}

/** Which of an item's children `GraphReader.children` lists: a page of them in id order. */
export interface ChildPage {
  /** Only the children whose id sorts after this one (the last id of the page before). */
  after?: string;
  limit: number;
}

/** An access point as found by label, with the item whose description holds it. */
export interface AccessPointMatch {
  accessPointId: string;
  itemId: string;
  name: string;
  type: string;
}

/**
 * Items of one type in id order, a page after a cursor: what a harvest (OAI-PMH) walks through
 * while imports write, which an offset would skip or repeat items under.
 */
export interface ItemListQuery {
  type: ItemType;
  /** Only the items whose id sorts after this one (the last id of the page before). */
  after?: string;
  /** Only the items below this one along `CHILD_EDGE_TYPES`, at any depth. */
  below?: string;
  /** Only the items with an edge of this type to an item (a unit's `heldBy`: the top-level units). */
  withEdge?: ItemEdgeType;
  /** Only the items last updated within these ISO 8601 times, both inclusive, compared as text. */
  updated?: { from?: string; until?: string };
  limit: number;
}

/** An item as a list of them gives it: its id and the time of its last change. */
export interface ListedItem {
  id: string;
  updated: string;
}

/** The item graph's reads: items, their hashes and types, the hierarchy, edges, access points. */
export interface ItemGraphReader {
  /** The items among `ids` that exist, with their bundles and edges. */
  getItems(ids: readonly string[]): Promise<Map<string, StoredItem>>;
  /** The stored hashes of the items among `ids` that exist (cheap: no bundle is read). */
  getHashes(ids: readonly string[]): Promise<Map<string, string>>;
  /** The types of the items among `ids` that exist. */
  getTypes(ids: readonly string[]): Promise<Map<string, ItemType>>;
  /** For each id, its chain upwards along `CHILD_EDGE_TYPES`: parent first, root last. */
  ancestors(ids: readonly string[]): Promise<Map<string, ItemRef[]>>;
  /** Number of children (per `CHILD_EDGE_TYPES`) of each of `ids`. */
  countChildren(ids: readonly string[]): Promise<Map<string, number>>;
  /** Every item below `rootId` (not the root itself), parents before children. */
  subtree(rootId: string): Promise<SubtreeEntry[]>;
  /**
   * The subtree a level at a time, in pages: for each of `parentIds`, the items with a child edge
   * (`CHILD_EDGE_TYPES`) to it, each once, in id order, at most `page.limit` of them after the id
   * `page.after`. Every id asked for has a list, empty for an item without children or not written.
   * An item with child edges to two items is listed under each.
   */
  children(parentIds: readonly string[], page: ChildPage): Promise<Map<string, SubtreeEntry[]>>;
  /** Access points named exactly `names` on the descriptions of items below `scopeId`. */
  findAccessPoints(scopeId: string, names: readonly string[]): Promise<AccessPointMatch[]>;
  /** Ids of the items with an outgoing edge of `type` to `targetId` (e.g. links to an item). */
  incoming(targetId: string, type: ItemEdgeType): Promise<string[]>;
  /** A page of the items a list query names, in id order. */
  listItems(query: ItemListQuery): Promise<ListedItem[]>;
}

/** The item graph's writes. */
export interface ItemGraphWriter extends ItemGraphReader {
  /** Creates or replaces items: data, all dependents, and the edge types each write names. */
  putItems(items: readonly ItemWrite[], options?: PutItemsOptions): Promise<void>;
  /**
   * Replaces the stored hashes of existing items (id → hash), and nothing else: not their content,
   * nor when they were last updated. Ids of no item are left alone.
   */
  setHashes(hashes: ReadonlyMap<string, string>): Promise<void>;
  /** Deletes items with their dependents and every edge that touches them or their dependents. */
  deleteItems(ids: readonly string[]): Promise<void>;
  /** Adds item-level edges (no-op for an edge that exists). */
  addEdges(edges: readonly { from: string; type: ItemEdgeType; to: string }[]): Promise<void>;
  /** Moves every edge of `type` that points at `fromId` so that it points at `toId`. */
  retargetEdges(fromId: string, toId: string, type: ItemEdgeType): Promise<void>;
}
