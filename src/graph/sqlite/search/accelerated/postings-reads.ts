import type { Statement } from 'better-sqlite3';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { ReadCache } from '../../../read-cache';
import type { RowMode } from '../../statement-cache';
import { SCORE } from '../search-sql';
import { typeCode } from '../text-rows';
import { Postings, PostingsBuilder } from './ranked-text';

/**
 * What the accelerated ranking reads from the index and keeps per store version: query phrases'
 * matches with their scores, and the items' id order. Read by searches (`RankingAccelerator`) and
 * by a writer warming the caches before its commit (search-warmup.ts), through whichever
 * connection they are given.
 */

/** Index rows read between turns of the event loop, so that other requests are not held up long. */
export const ROWS_PER_TURN = 4096;
/** A phrase's matching full-text rows, with what the phrase alone scores for them (ranked-text.ts). */
const SELECT_POSTINGS = `SELECT rowid, ${SCORE} FROM item_text WHERE item_text MATCH ? ORDER BY rowid`;
/** Along the id index: SQLite's own collation, the one the search SQL breaks ties by. */
const SELECT_ITEMS_BY_ID = 'SELECT rid, type FROM item ORDER BY id';
const SELECT_LAST_RID = 'SELECT coalesce(max(rid), 0) FROM item';
/** The postings cache's key of the item order: phrases are quoted (fts-query.ts), this is not. */
export const ITEM_ORDER = 'item order';
/**
 * The postings cache weighs by postings' rows, of 16 bytes; the item order holds 9 bytes a rid (its
 * place in the order of rids, its position, its type code).
 */
export const RIDS_PER_POSTINGS_ROW = 2;

/** How a read gets its connection's prepared statements. */
export type Statements = (sql: string, mode?: RowMode) => Statement;

/** The items of a store version by rid, read once along the id index (`readItemOrder`). */
export interface ItemOrder {
  /** The items' rids in id order. */
  rids: Int32Array;
  /** Each item's position in id order, which ranked hits are tied by; -1 where no item has the rid. */
  positions: Int32Array;
  /** Each item's type code (text-rows.ts). */
  typeCodes: Uint8Array;
}

/**
 * The accelerated ranking's caches: query phrases' matches and the items' id order, weighed by
 * their rows, and the reads of them under way, shared by the store's readers so that two searches
 * needing the same phrase read it once.
 */
export interface RankingCaches {
  postings: ReadCache;
  reading: Map<string, Promise<unknown>>;
  /**
   * What a writer read for a version before committing it (search-warmup.ts), taken into
   * `postings` as searches at that version ask for it.
   */
  handedOver?: { version: number; entries: Map<string, { value: unknown; weight: number }> };
}

/** Whether a key of the postings cache is a query phrase: phrases are quoted (fts-query.ts). */
const isPhrase = (key: string) => key.startsWith('"');
/** What postings weigh in their cache: their rows. */
export const postingsWeight = (postings: Postings) => 1 + postings.rows.length;
/** What the item order weighs in the postings cache. */
export const itemOrderWeight = (order: ItemOrder) =>
  1 + Math.ceil(order.positions.length / RIDS_PER_POSTINGS_ROW);

/**
 * A phrase's matches from the index, a turn of the event loop after every `ROWS_PER_TURN`: a
 * common word's run is long enough that other requests would otherwise wait it out.
 */
export async function readPhrasePostings(statements: Statements, phrase: string): Promise<Postings> {
  const postings = new PostingsBuilder();
  for (const [row, score] of statements(SELECT_POSTINGS, 'raw').iterate(phrase) as Iterable<
    [number, number]
  >) {
    if (postings.add(row, score) % ROWS_PER_TURN === 0) await setImmediatePromise();
  }
  return postings.build();
}

/**
 * Each item's position in id order and its type, by rid: read like postings, since it reads every
 * item's row.
 */
export async function readItemOrder(statements: Statements): Promise<ItemOrder> {
  const ridEnd = (statements(SELECT_LAST_RID, 'pluck').get() as number) + 1;
  const rids = new Int32Array(ridEnd);
  const positions = new Int32Array(ridEnd).fill(-1);
  const typeCodes = new Uint8Array(ridEnd);
  let position = 0;
  for (const [rid, type] of statements(SELECT_ITEMS_BY_ID, 'raw').iterate() as Iterable<[number, string]>) {
    rids[position] = rid;
    positions[rid] = position++;
    typeCodes[rid] = typeCode(type);
    if (position % ROWS_PER_TURN === 0) await setImmediatePromise();
  }
  return { rids: rids.subarray(0, position), positions, typeCodes };
}

/**
 * The phrases the postings cache holds, whatever their version, with their rows: those searches
 * read, the most recently used first.
 */
export function searchedPhrases(caches: RankingCaches): [phrase: string, rows: number][] {
  return caches.postings.recentEntries().filter(([key]) => isPhrase(key));
}
