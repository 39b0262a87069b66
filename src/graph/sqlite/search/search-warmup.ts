import { RowMode, StatementCache } from '../statement-cache';
import { ItemOrder, readItemOrder, readPhrasePostings } from './ranking-accelerator';
import { Postings } from './ranked-text';

/**
 * The accelerated ranking's caches brought up to date by the writer, before it commits: inside its
 * write transaction the writer sees the version it is about to commit, so it reads there the item
 * order and the phrases the serving process's searches read last (`SearchWarmupPlan`), and hands
 * them over (`WarmedSearch`) to that process, which keeps them for that version. The first searches
 * after the commit find them read, and the reading was done on the writer's thread (the import
 * worker's), not on the one that answers requests.
 */

export interface SearchWarmupPlan {
  kind: 'sqlite-search';
  /** Query phrases, most recently searched first. */
  phrases: string[];
}

export interface WarmedSearch {
  kind: 'sqlite-search';
  /** The version the write commits. */
  version: number;
  itemOrder: ItemOrder;
  postings: [phrase: string, postings: Postings][];
}

export function isSearchWarmupPlan(value: unknown): value is SearchWarmupPlan {
  return (value as SearchWarmupPlan | undefined)?.kind === 'sqlite-search';
}

export function isWarmedSearch(value: unknown): value is WarmedSearch {
  return (value as WarmedSearch | undefined)?.kind === 'sqlite-search';
}

/** Reads what `plan` names through the writer's connection, as the version `version` holds it. */
export async function warmSearch(
  writer: StatementCache,
  plan: SearchWarmupPlan,
  version: number,
): Promise<WarmedSearch> {
  const statements = (sql: string, mode?: RowMode) => writer.get(sql, mode);
  const postings: WarmedSearch['postings'] = [];
  for (const phrase of plan.phrases) postings.push([phrase, await readPhrasePostings(statements, phrase)]);
  return { kind: 'sqlite-search', version, itemOrder: await readItemOrder(statements), postings };
}

/** The buffers a `WarmedSearch` holds, to move to another thread rather than copy. */
export function buffersOf(warmed: WarmedSearch): ArrayBuffer[] {
  const { rids, positions, typeCodes } = warmed.itemOrder;
  const arrays = [rids, positions, typeCodes, ...warmed.postings.flatMap(([, p]) => [p.rows, p.scores])];
  return [...new Set(arrays.map((array) => array.buffer as ArrayBuffer))];
}
