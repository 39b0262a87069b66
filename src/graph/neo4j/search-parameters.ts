import { int } from 'neo4j-driver';
import { countedValues } from '../facet-counts';
import { FacetField, SearchQuery, SearchResult } from '../graph-store';
import { luceneTextQuery } from './lucene-query';
import { fulltextQuery } from './search-words';

/**
 * What the search statements (cypher.ts, `SEARCH`) are given for a query: which of them, and their
 * parameters. A structured query that keeps no word finds nothing (`undefined`).
 */
export function searchParameters(
  query: SearchQuery,
):
  | { source: 'text' | 'browse'; parameters: Record<string, unknown>; page: Record<string, unknown> }
  | undefined {
  const lucene = query.textQuery !== undefined ? luceneTextQuery(query.textQuery) : fulltextQuery(query.text);
  if (lucene === undefined && query.textQuery !== undefined) return undefined;
  const source = lucene === undefined ? 'browse' : 'text';
  const facets = new Set(query.facets ?? []);
  const filter = (values: readonly string[] | undefined) => (values?.length ? values : null);
  const parameters: Record<string, unknown> = {
    types: query.types ?? [],
    languages: filter(query.filters?.languages),
    countries: filter(query.filters?.countries),
    holders: filter(query.filters?.holders),
    ids: query.filters?.ids ?? null,
    countCountries: facets.has('country'),
    countHolders: facets.has('holder'),
  };
  if (lucene !== undefined) parameters.query = lucene;
  if (query.scope !== undefined) parameters.scopeId = query.scope.id;
  // Without text, relevance means nothing: the most recently updated come first instead.
  let order = query.order ?? { key: source === 'text' ? 'score' : 'id', descending: false };
  if (order.key === 'score' && source === 'browse') order = { key: 'updated', descending: !order.descending };
  const page = {
    orderKey: order.key,
    descending: order.descending,
    offset: int(query.offset),
    limit: int(query.limit),
  };
  return { source, parameters, page };
}

/** The facet counts of a summary row's value lists (`types`, `languages`, `countries`, `holders`). */
export function facetCounts(
  facets: readonly FacetField[],
  lists: { types: string[]; languages: string[][]; countries: string[]; holders: string[] },
): NonNullable<SearchResult['facets']> {
  const values: Record<FacetField, () => Iterable<string>> = {
    type: () => lists.types,
    lang: () => lists.languages.flat(),
    country: () => lists.countries,
    holder: () => lists.holders,
  };
  return Object.fromEntries(facets.map((facet) => [facet, countedValues(values[facet]())]));
}
