import { ItemType } from '../items/item-types';
import type { ItemRef, StoredItem } from './item-graph';
import type { RecordNode } from './records';
import { TextQuery } from './text-query';

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

/**
 * What a portal answer reads, asked of the store in one call (`SearchReader.readPage`), so that a
 * remote store answers it in one round trip: a page of a search with its total and facets, the
 * items shown beside the hits, and the record that tells what became of an id no item has.
 */
export interface PageRequest {
  /** The search whose page of hits to read, as `SearchReader.search` takes it. */
  search?: SearchQuery;
  /**
   * With a scoped search: the scope's types whose scope is everything below them (`descendants`);
   * any other scope is its children. Absent: the depth `search.scope` names.
   */
  deepScopeTypes?: readonly ItemType[];
  /** Keeps only the other ends of the links (`hasLinkTarget`) that have this item at one end. */
  linkedTo?: string;
  /** Items to read beside the hits (a fetched item, a scope). */
  ids?: readonly string[];
  /** With each unit among `ids`, its holder and its parent too (what a fetch includes). */
  context?: boolean;
  /**
   * A record to read too: the tombstone of an id among `ids`, in case it names no item (a store
   * may leave it out when every item of `ids` exists).
   */
  recordId?: string;
  /**
   * Bounds what the search's total and facets cost: a store may work them out over only the first
   * `max(countLimit, offset + limit + 1)` hits it finds (a text search: its index's best; the one
   * past the page, so that a page past the bound still has a next), and then says so
   * (`Page.totalIsLowerBound`). Absent, or in a store whose counts are cheap, they are exact.
   */
  countLimit?: number;
}

/** An item as a page shows it: what is stored, its number of children and, for a unit, its holder. */
export interface PageItem {
  stored: StoredItem;
  /** Its children (per `CHILD_EDGE_TYPES`), as `countChildren` counts them. */
  subitems: number;
  /** For a unit: its `heldBy` target, or else the repository above its parent. */
  holderId?: string;
}

export interface Page {
  /** The search's hits, in order (none without a search). */
  hits: PageItem[];
  total: number;
  /**
   * Set when the total and facets were worked out over the first hits only (`countLimit`): there
   * may be more hits than `total`.
   */
  totalIsLowerBound?: true;
  facets?: Partial<Record<FacetField, FacetCount[]>>;
  /** The items of `ids`, their context, and the holders the holder facet counts, that exist. */
  items: Map<string, PageItem>;
  record?: RecordNode;
}

/** The search's reads. */
export interface SearchReader {
  search(query: SearchQuery): Promise<SearchResult>;
  /**
   * Everything one portal answer reads (a page of a search with its total and facets, the items
   * beside it, a tombstone), in one call: a remote store answers it in one round trip.
   */
  readPage(request: PageRequest): Promise<Page>;
}
