/**
 * What is left of an item that an import removed: when, by which import, and, for an item that
 * moved, its new id. The portal answers its old id with 410 Gone or 301 Moved Permanently.
 */
export interface Tombstone {
  itemId: string;
  /** ISO 8601 time of the import that removed it. */
  removed: string;
  /** The id of that import's log; absent for a removal no log recorded. */
  event?: string;
  /** The id the item lives on under, when the import moved it rather than deleting it. */
  movedTo?: string;
  /**
   * The repository and the country the item was below, where known: a harvest (OAI-PMH) lists
   * the deletion in their sets, which the item, gone, can no longer tell.
   */
  repository?: string;
  country?: string;
}

/** Where a removed item was: the repository and the country it was below. */
export type TombstonePlace = Pick<Tombstone, 'repository' | 'country'>;

/** Tombstones in the order of their records' ids, a page after a cursor. */
export interface TombstoneListQuery {
  /** Only those after this record id (the last `recordId` of the page before). */
  after?: string;
  /** Only those below this repository or country. */
  place?: TombstonePlace;
  /** Only those removed within these ISO 8601 times, both inclusive, compared as text. */
  removed: { from?: string; until?: string };
  limit: number;
}
