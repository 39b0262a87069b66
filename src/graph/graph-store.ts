import { Bundle, Props } from '../items/bundle';
import { ItemEdgeType, ItemType } from '../items/item-types';
import type { Page, PageRequest } from './portal-page';
import { TextQuery } from './text-query';

/**
 * The persistence port. Domain code reaches the data only through this class; it is also the DI
 * token, bound to the SQLite or the Neo4j adapter by `GraphModule` according to `GRAPH_URL`.
 *
 * Every operation takes and returns batches, so that an import of 100,000 units is a few hundred
 * round trips to a remote store, not 100,000.
 */
export interface WriteOptions {
  /** False: a dry run, which sees its own writes and is rolled back. Default true. */
  commit?: boolean;
  /**
   * Called last before the commit, inside the transaction: a rejection rolls the write back (an
   * import whose token was revoked meanwhile). Not called for a dry run.
   */
  beforeCommit?: () => Promise<void>;
  /**
   * A write of records that no other write touches (a token's, on Neo4j): where the store locks
   * what each write touches, it neither queues behind other writes nor takes their lock.
   */
  apart?: boolean;
}

export abstract class GraphStore {
  /** A read transaction: sees one consistent, committed snapshot; never blocked by a writer. */
  abstract read<T>(work: (tx: GraphReader) => Promise<T>): Promise<T>;

  /**
   * A write transaction. Writers queue: a second writer waits for the first to finish, it never
   * fails because the store is busy. The transaction commits when `work` resolves and `commit` is
   * true (the default); it rolls back when `work` rejects or `commit` is false (a dry run sees its
   * own writes and then leaves nothing behind).
   */
  abstract write<T>(work: (tx: GraphWriter) => Promise<T>, options?: WriteOptions): Promise<T>;

  /** Resolves when the store answers; rejects otherwise. */
  abstract ping(): Promise<void>;

  /**
   * What keeps the store from serving now (damaged, read-only), in words for operators; empty
   * when nothing does. Rejects when the store does not answer.
   */
  async problems(): Promise<string[]> {
    await this.ping();
    return [];
  }

  /** Write transactions of this process queued or running, for the metrics. */
  abstract queuedWrites(): number;

  abstract close(): Promise<void>;
}

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

/** What a search's hits can be counted by: type, description language, country, holder. */
export const FACET_FIELDS = ['type', 'lang', 'country', 'holder'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

/**
 * An order of hits; ties go by id. `name`: the smallest of the item's names (a country's own, its
 * descriptions' otherwise), case folded; `updated`: the time of the last change; `score`: relevance,
 * best first (with no text, the default order); `country`: the id of its country (as the `country`
 * filter finds it); `holder`: the smallest name of a unit's holder, case folded; `detail`: how many
 * characters its descriptions' text values hold; `holdings`: its number of children (as
 * `countChildren`). Hits without a country or holder come last either way.
 */
export interface SearchOrder {
  key: SearchOrderKey;
  descending: boolean;
}

/** Every key a search may be ordered by. */
export const SEARCH_ORDER_KEYS = [
  'score',
  'updated',
  'id',
  'name',
  'country',
  'holder',
  'detail',
  'holdings',
] as const;
export type SearchOrderKey = (typeof SEARCH_ORDER_KEYS)[number];

/** The order of a search that names none: relevance with text, most recently updated first without. */
export const UPDATED_FIRST: SearchOrder = { key: 'updated', descending: true };

export interface SearchFilters {
  /** Items with a description in one of these languages (ISO 639-2/T codes). */
  languages?: readonly string[];
  /** Items in one of these countries: a country itself, or what lies below it. */
  countries?: readonly string[];
  /** Units held by one of these repositories, directly or through their ancestors. */
  holders?: readonly string[];
  /** Only the items with these ids (an empty list keeps none, unlike the other filters). */
  ids?: readonly string[];
}

export interface FacetCount {
  value: string;
  count: number;
}

export interface SearchQuery {
  /** Free text, every word the start of an indexed word; blank or absent means every item. */
  text?: string;
  /** A structured query (fields, phrases, operators); used instead of `text` when given. */
  textQuery?: TextQuery;
  /** Item types to keep (OR-ed); absent or empty means all. */
  types?: readonly ItemType[];
  /**
   * Restrict to the children of `id` (items with a `CHILD_EDGE_TYPES` edge to it) or, with
   * `descendants`, to everything below it.
   */
  scope?: { id: string; depth: 'children' | 'descendants' };
  offset: number;
  limit: number;
  /** Absent: by relevance then id with text, by id without (`UPDATED_FIRST` is the portal's). */
  order?: SearchOrder;
  filters?: SearchFilters;
  /** Facets to count over every hit (not the page), each value's count, most frequent first. */
  facets?: readonly FacetField[];
}

export interface SearchResult {
  total: number;
  hits: ItemRef[];
  /** The counts of the facets asked for. */
  facets?: Partial<Record<FacetField, FacetCount[]>>;
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
 * Records that are not archival items: tokens, import logs. Stored as plain nodes of their own
 * type with flat properties; `RecordQuery` filters on equality and ranges.
 */
export interface RecordNode {
  id: string;
  type: string;
  props: Props;
}

export interface RecordQuery {
  type: string;
  /** Property equals value. */
  equals?: Props;
  /** Property within [from, to] (inclusive; either bound optional); strings compare as text. */
  range?: { property: string; from?: string | number; to?: string | number };
  orderBy?: { property: string; descending?: boolean };
  /**
   * Only the records whose id sorts after this one: with no `orderBy`, a cursor to the page after
   * the one that ended with it, which records written meanwhile do not shift as an offset would.
   */
  after?: string;
  offset?: number;
  limit?: number;
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

export interface GraphReader {
  /**
   * The committed version of the store this read sees, where the store numbers them (every commit
   * makes a new one): reads at one version see the same data, so their results may be kept for it.
   * Undefined in a write and in stores that do not number versions.
   */
  readonly version?: number;
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
  search(query: SearchQuery): Promise<SearchResult>;
  /**
   * Everything one portal answer reads (a page of a search with its total and facets, the items
   * beside it, a tombstone), in one call: a remote store answers it in one round trip.
   */
  readPage(request: PageRequest): Promise<Page>;
  /** Access points named exactly `names` on the descriptions of items below `scopeId`. */
  findAccessPoints(scopeId: string, names: readonly string[]): Promise<AccessPointMatch[]>;
  /** Ids of the items with an outgoing edge of `type` to `targetId` (e.g. links to an item). */
  incoming(targetId: string, type: ItemEdgeType): Promise<string[]>;
  /** A page of the items a list query names, in id order. */
  listItems(query: ItemListQuery): Promise<ListedItem[]>;

  getRecord(id: string): Promise<RecordNode | undefined>;
  findRecords(query: RecordQuery): Promise<{ total: number; records: RecordNode[] }>;
}

export interface GraphWriter extends GraphReader {
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
  /** Creates or replaces records. */
  putRecords(records: readonly RecordNode[]): Promise<void>;
}
