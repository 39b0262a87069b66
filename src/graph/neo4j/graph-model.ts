import { DEPENDENT_TYPES, ITEM_TYPES } from '../../items/item-types';

/**
 * How the port's model lies in Neo4j. Main items carry the shared `Item` label (ids are unique
 * across item types) and their type label; dependents carry `Dependent`, their type label and the
 * id of the item that owns them; records carry `Record` and their record type as a label.
 *
 * An item edge may name a node not written yet (a parent that follows its children in an EAD
 * stream). Its target is then a placeholder: a node with the `Pending` label and the id alone,
 * which becomes the item or dependent when that is written. Reads match `Item` and `Dependent`
 * only, so they never see a placeholder nor an edge to one.
 */
export const ITEM_LABEL = 'Item';
export const DEPENDENT_LABEL = 'Dependent';
export const RECORD_LABEL = 'Record';
export const PENDING_LABEL = 'Pending';
/**
 * The one node every write transaction locks first, so that writers of every process (service
 * workers, the CLI) take turns, as the port promises, and never deadlock on the nodes they share.
 */
export const WRITE_LOCK_LABEL = 'WriteLock';

/** Bookkeeping properties. Data keys are stored as they are, so these must not clash with them. */
export const ID = 'id';
export const TYPE = '_type';
export const HASH = '_hash';
export const UPDATED = '_updated';
export const OWNER = '_owner';
/** The item's searchable words (see `search-words.ts`), in the full-text index. */
export const NAMES = '_names';
export const TEXT = '_text';
/** The words of the fields a query may name, each indexed on its own (lucene-query.ts). */
export const TITLES = '_titles';
export const IDENTIFIERS = '_identifiers';
export const SCOPE_AND_CONTENT = '_scope';

export const ITEM_BOOKKEEPING: readonly string[] = [
  ID,
  TYPE,
  HASH,
  UPDATED,
  NAMES,
  TEXT,
  TITLES,
  IDENTIFIERS,
  SCOPE_AND_CONTENT,
];
export const DEPENDENT_BOOKKEEPING: readonly string[] = [ID, TYPE, OWNER];
export const RECORD_BOOKKEEPING: readonly string[] = [ID, TYPE];

/** The full-text index over names, text and the query fields. */
export const SEARCH_INDEX = 'item_fields_search';
/** The index before query fields had their own properties; dropped when the adapter starts. */
export const OLD_SEARCH_INDEX = 'item_search';

/** Labels the adapter uses itself; a record type must not be one of them. */
export const RESERVED_LABELS: readonly string[] = [
  ITEM_LABEL,
  DEPENDENT_LABEL,
  RECORD_LABEL,
  PENDING_LABEL,
  WRITE_LOCK_LABEL,
  ...ITEM_TYPES,
  ...DEPENDENT_TYPES,
];
