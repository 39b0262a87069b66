import { StatementCache } from '../../statement-cache';
import {
  ITEM_ORDER,
  ItemOrder,
  itemOrderWeight,
  postingsWeight,
  RankingCaches,
  readItemOrder,
  readPhrasePostings,
  Statements,
} from './postings-reads';
import { Postings } from './ranked-text';

/**
 * The accelerated ranking's caches brought up to date by the writer, before it commits: inside its
 * write transaction the writer sees the version it is about to commit, so it reads there the item
 * order and the phrases a serving store's searches read last (`WarmupPlan`), and hands them over
 * (`WarmedSearch`) to that store, which keeps them for that version. The first searches after the
 * commit find them read, and the reading was done on the writer's thread (the import worker's),
 * not on the one that answers requests.
 */

export interface WarmupPlan {
  /** Query phrases, most recently searched first. */
  phrases: string[];
}

export interface WarmedSearch {
  /** The version the write commits. */
  version: number;
  itemOrder: ItemOrder;
  postings: [phrase: string, postings: Postings][];
}

/** Reads what `plan` names through the writer's connection, as the version `version` holds it. */
export async function warmSearch(
  writer: StatementCache,
  plan: WarmupPlan,
  version: number,
): Promise<WarmedSearch> {
  const statements: Statements = (sql, mode) => writer.get(sql, mode);
  const postings: WarmedSearch['postings'] = [];
  for (const phrase of plan.phrases) postings.push([phrase, await readPhrasePostings(statements, phrase)]);
  return { version, itemOrder: await readItemOrder(statements), postings };
}

/** What a writer read for the caches, keyed and weighed as the cache keeps it. */
export function handedOverEntries(warmed: WarmedSearch): NonNullable<RankingCaches['handedOver']> {
  const entries = new Map<string, { value: unknown; weight: number }>([
    [ITEM_ORDER, { value: warmed.itemOrder, weight: itemOrderWeight(warmed.itemOrder) }],
  ]);
  for (const [phrase, postings] of warmed.postings) {
    entries.set(phrase, { value: postings, weight: postingsWeight(postings) });
  }
  return { version: warmed.version, entries };
}
