import { ItemRef, SearchQuery, SearchResult } from '../../graph-store';
import { FacetedHit, facetedResult, facetedSearchSql, needsFacetedSearch } from './faceted-search';
import { SoleTerm, termRange } from './fts-query';
import { RankingAccelerator, TOP_HITS } from './accelerated/ranking-accelerator';
import { SearchReads } from './search-reads';
import { searchSql, SearchSql, Subtree } from './search-sql';
import { SELECT_TERM_FROM } from './term-index';
import { textRowRange } from './text-rows';

/** From this offset on, a scoped page without text is cut from the whole ordered list, kept in the cache. */
const DEEP_OFFSET = 1000;
/** Index terms are lower-case ASCII letters and digits, as query words are (fts-query.ts). */
const ASCII_TERM = /^[a-z0-9]+$/;
/** The lowest and highest rid below a path prefix. */
const SELECT_RID_SPAN = 'SELECT min(rid) AS first, max(rid) AS last FROM item WHERE path >= ? AND path < ?';

/**
 * A search in SQL (search-sql.ts): ranked by FTS5's bm25 with text, in id order without; results
 * kept per store version in a read transaction. With an `accelerator`, a read transaction ranks
 * text and lists unscoped items through it instead, which gives the same hits.
 */
export async function searchItems(
  reads: SearchReads,
  query: SearchQuery,
  accelerator?: RankingAccelerator,
): Promise<SearchResult> {
  if (query.scope && !reads.exists(query.scope.id)) return { total: 0, hits: [] };
  const subtree = query.scope?.depth === 'descendants' ? subtreeOf(reads, query.scope.id) : undefined;
  if (isFacetedSearch(query, accelerator)) return facetedSearch(reads, query, subtree);
  // Only read transactions open the index's term list (term-index.ts).
  const soleTerm = reads.snapshot && soleTermOf(reads);
  const sql = searchSql(query, subtree, soleTerm);
  const key = `${sql.page}\0${JSON.stringify(sql.params)}`;
  const end = query.offset + query.limit;
  const ranked =
    sql.all === undefined && accelerator
      ? await accelerator.rankedText(key, query, subtree, soleTerm)
      : undefined;
  // Without text or scope, the hits are the items of the types asked for, in id order or the most
  // recently updated first.
  const listed =
    sql.all !== undefined && !query.scope && accelerator
      ? await accelerator.ridsOfTypes(query.types, query.order?.key === 'updated' ? 'updated' : 'id')
      : undefined;
  const sqlPage = () =>
    reads.cached(`${key}\0${query.offset}\0${query.limit}`, () =>
      page(reads, sql, query.offset, query.limit),
    );
  // A first page that is not full holds every hit: no count is needed (most units' children).
  const firstPage =
    ranked === undefined && listed === undefined && query.offset === 0 ? sqlPage() : undefined;
  const total =
    ranked?.total ??
    listed?.length ??
    (firstPage !== undefined && firstPage.length < query.limit ? firstPage.length : undefined) ??
    reads.cached(key, () => reads.statement(sql.count, 'pluck').get(sql.params) as number);
  if (total <= query.offset) return { total, hits: [] };
  let hits: ItemRef[];
  if (ranked !== undefined && end <= TOP_HITS) {
    hits = accelerator!.refsOfRids(ranked.top.slice(query.offset, end));
  } else if (listed !== undefined) {
    hits = accelerator!.refsOfRids(Array.from(listed.subarray(query.offset, end)));
  } else if (sql.all !== undefined && query.offset >= DEEP_OFFSET) {
    const all = sql.all;
    const everything = reads.cached(`${key}\0all`, () => reads.statement(all).all(sql.params) as ItemRef[]);
    hits = everything.slice(query.offset, end);
  } else {
    hits = firstPage ?? sqlPage();
  }
  // Cached hits are shared: callers get their own copies.
  return { total, hits: hits.map((hit) => ({ id: hit.id, type: hit.type })) };
}

/**
 * Whether a search goes to the faceted SQL (faceted-search.ts): what the ranked and listed paths do
 * not serve, and a listing by update time without the accelerator, which keeps the update order.
 */
export function isFacetedSearch(query: SearchQuery, accelerator: RankingAccelerator | undefined): boolean {
  return needsFacetedSearch(query) || (query.order?.key === 'updated' && !accelerator);
}

/** Every hit in order, kept per store version, pages and counts cut from them. */
function facetedSearch(reads: SearchReads, query: SearchQuery, subtree: Subtree | undefined): SearchResult {
  const sql = facetedSearchSql(query, subtree);
  if (sql === undefined) return facetedResult([], query);
  const hits = reads.cached(
    `faceted\0${sql.sql}\0${JSON.stringify(sql.params)}`,
    () => reads.statement(sql.sql).all(sql.params) as FacetedHit[],
    (rows) => 1 + Math.ceil(rows.length / 8),
  );
  return facetedResult(hits, query);
}

/**
 * The one indexed term that starts with `prefix`, if only one does (fts-query.ts): two steps
 * into the index's term list, kept per store version.
 */
export function soleTermOf(reads: SearchReads): SoleTerm {
  return (prefix) =>
    reads.cached(`term\0${prefix}`, () => {
      const { from, to } = termRange(prefix);
      const next = reads.statement(SELECT_TERM_FROM, 'pluck');
      const first = next.get(from, to) as string | undefined;
      if (first === undefined || !ASCII_TERM.test(first)) return undefined;
      // No index term holds a control character: this is the least string after `first` but it.
      return next.get(`${first}\u0001`, to) === undefined ? first : undefined;
    });
}

function page(reads: SearchReads, sql: SearchSql, offset: number, limit: number): ItemRef[] {
  const params = { ...sql.params, limit, offset, last: offset + limit - 1 };
  return reads.statement(sql.page).all(params) as ItemRef[];
}

/** The path range below an item and the span of its subtree's text rows. */
function subtreeOf(reads: SearchReads, scopeId: string): Subtree {
  return reads.cached(`subtree\0${scopeId}`, () => {
    const { from, to } = reads.pathRangeBelow(scopeId);
    const rids = reads.statement(SELECT_RID_SPAN).get(from, to) as {
      first: number | null;
      last: number | null;
    };
    return { below: from, belowEnd: to, ...textRowRange(rids.first ?? 1, rids.last ?? 0) };
  });
}
