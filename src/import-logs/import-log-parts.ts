import { Ids, WalkedIds } from './walked-ids';

/**
 * Ids per part record. A record is stored as one JSON text in one row: with every id of a large
 * log in its record, that text and its copies on the way into SQLite took memory that grew with
 * the import at its end. In parts, one part's ids are serialised at a time.
 */
export const PART_IDS = 2000;

/** A list of ids in a stored log: where it goes in the record, and the ids. */
export interface IdList {
  /** The record's field (`touched`, `log`, `result`), then the keys down to the list. */
  path: string[];
  ids: Ids;
}

/** What the log record keeps of a list whose ids are in parts: the parts hold them in this order. */
export interface PartedList {
  path: string[];
  count: number;
}

function isIdList(value: unknown[]): value is string[] {
  return value.length > 0 && value.every((element) => typeof element === 'string');
}

/**
 * The non-empty arrays of strings and walked lists in `value`, in JSON order; arrays of other
 * things are left.
 */
export function idLists(value: unknown, path: string[] = []): IdList[] {
  if (value instanceof WalkedIds) return value.length > 0 ? [{ path, ids: value }] : [];
  if (Array.isArray(value)) return isIdList(value) ? [{ path, ids: value }] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => idLists(child, [...path, key]));
}
