import { ITEM_TYPES } from '../../../items/item-types';
import { countedValues } from '../../facet-counts';
import { FacetField, ItemRef, SearchFilters, SearchQuery, SearchResult } from '../../graph-store';
import { POSITION_BITS } from '../dependent-rows';
import { toFtsQuery } from './fts-query';
import { ftsTextQuery } from './fts-text-query';
import { SCORE, Subtree, typeFilter } from './search-sql';
import { CHILD_EDGES, sqlList } from '../sql';
import { RID_OF_ROW, typeCodes } from './text-rows';

/**
 * Searches that the ranked and listed paths of the reader do not serve: a structured query,
 * filters, facets, or an order other than relevance, id or the most recently updated first over
 * everything. One statement selects every hit in order, with what its facets need; the result is
 * kept per store version, and pages, total and facet counts are cut from it.
 */

/** A hit of a faceted search: its ref, and the values it is counted by. */
export interface FacetedHit extends ItemRef {
  country: string | null;
  holder: string | null;
  /** The languages of its descriptions, comma-separated; null when not asked for or none. */
  languages: string | null;
}

export interface FacetedSql {
  sql: string;
  params: Record<string, string | number>;
}

function hasFilters(filters: SearchFilters | undefined): boolean {
  if (filters?.ids !== undefined) return true;
  return Object.values(filters ?? {}).some((values) => values !== undefined && values.length > 0);
}

/**
 * Whether a search needs the faceted path: a structured query, filters, facets, or an order that is
 * not relevance, nor id or update time over every item of some types.
 */
export function needsFacetedSearch(query: SearchQuery): boolean {
  if (query.textQuery !== undefined || hasFilters(query.filters) || (query.facets?.length ?? 0) > 0)
    return true;
  const { order } = query;
  if (order === undefined) return false;
  const listed = query.text === undefined && query.scope === undefined;
  const listedOrder = order.key === 'id' ? !order.descending : order.key === 'updated' && order.descending;
  return !(listed && listedOrder);
}

/** The item's dependents' rids: one range of the dependent table's key (dependent-rows.ts). */
const OWN_DEPENDENTS = `d.rid >= k.rid << ${POSITION_BITS} AND d.rid < (k.rid + 1) << ${POSITION_BITS}`;
const OWN_DESCRIPTIONS = `${OWN_DEPENDENTS} AND d.relation = 'describes' AND d.parent IS NULL`;
const LANGUAGE = `json_extract(d.props, '$.languageCode')`;
const LANGUAGES = `(SELECT group_concat(DISTINCT ${LANGUAGE}) FROM dependent d WHERE ${OWN_DESCRIPTIONS})`;

/** The first and the second key of an item's path (item-paths.ts): its root and the item below it. */
const SEPARATOR = 'char(31)';
const ROOT = `substr(k.path, 1, instr(k.path, ${SEPARATOR}) - 1)`;
const BELOW_ROOT_PATH = `substr(k.path, instr(k.path, ${SEPARATOR}) + 1)`;
const BELOW_ROOT = `substr(${BELOW_ROOT_PATH}, 1, instr(${BELOW_ROOT_PATH}, ${SEPARATOR}) - 1)`;

/**
 * Countries and repositories by their path keys, worked out once per statement: a path names its
 * ancestors by key, and a key is a digest of the id, which no index of the item table holds.
 */
const KEYED_TOPS = `keyed_top AS MATERIALIZED (
  SELECT rid, id, type, path_key(id) AS key FROM item WHERE type IN ('Country', 'Repository'))`;

/** A country is its own country; anything else is in the country at the root of its path. */
const COUNTRY = `CASE WHEN k.type = 'Country' THEN k.id
  ELSE (SELECT c.id FROM keyed_top c WHERE c.key = ${ROOT} AND c.type = 'Country') END`;
/** A unit's holder: the repository at the root of its path or just below a country there. */
const HOLDER = `CASE WHEN k.type = 'DocumentaryUnit'
  THEN (SELECT r.id FROM keyed_top r WHERE r.key IN (${ROOT}, ${BELOW_ROOT}) AND r.type = 'Repository') END`;

/** The smallest of the names of a unit's holder's descriptions, case folded. */
const HOLDER_NAME = `CASE WHEN k.type = 'DocumentaryUnit'
  THEN (SELECT min(lower(json_extract(d.props, '$.name'))) FROM keyed_top r JOIN dependent d
    ON d.rid >= r.rid << ${POSITION_BITS} AND d.rid < (r.rid + 1) << ${POSITION_BITS}
      AND d.relation = 'describes' AND d.parent IS NULL
    WHERE r.key IN (${ROOT}, ${BELOW_ROOT}) AND r.type = 'Repository') END`;

/** The characters of the text values of an item's descriptions, bookkeeping (keys starting "_") aside. */
const DETAIL = `(SELECT coalesce(sum(length(p.value)), 0) FROM dependent d, json_each(d.props) p
  WHERE ${OWN_DESCRIPTIONS} AND p.type = 'text' AND substr(p.key, 1, 1) <> '_')`;

/** The item's children, as the reader's `countChildren` counts them. */
const HOLDINGS = `(SELECT count(*) FROM edge c WHERE c.dst = k.id AND c.type IN (${CHILD_EDGES}))`;

/** The smallest of an item's names, case folded: a country's own, its descriptions' otherwise. */
const NAME = `coalesce(
  (SELECT min(lower(json_extract(d.props, '$.name'))) FROM dependent d WHERE ${OWN_DESCRIPTIONS}),
  lower(json_extract(k.props, '$.name')), '')`;

function orderBy(query: SearchQuery, scored: boolean): string {
  const order = query.order ?? { key: scored ? 'score' : 'id', descending: false };
  const direction = order.descending ? 'DESC' : 'ASC';
  switch (order.key) {
    case 'score':
      // Relevance with text (bm25: lower is better); without text, the most recently updated first.
      if (scored) return `m.score ${order.descending ? 'DESC' : 'ASC'}, k.id`;
      return `k.updated ${order.descending ? 'ASC' : 'DESC'}, k.id`;
    case 'updated':
      return `k.updated ${direction}, k.id`;
    case 'name':
      return `${NAME} ${direction}, k.id`;
    case 'id':
      return `k.id ${direction}`;
    // Hits without a country or holder last either way; each subquery is written (and run) once.
    case 'country':
      return `(${COUNTRY}) ${direction} NULLS LAST, k.id`;
    case 'holder':
      return `(${HOLDER_NAME}) ${direction} NULLS LAST, k.id`;
    case 'detail':
      return `${DETAIL} ${direction}, k.id`;
    case 'holdings':
      return `${HOLDINGS} ${direction}, k.id`;
  }
}

/** The statement selecting every hit of `query` in order; a search of descendants needs `subtree`. */
export function facetedSearchSql(query: SearchQuery, subtree?: Subtree): FacetedSql | undefined {
  const params: FacetedSql['params'] = {};
  const match = query.textQuery !== undefined ? ftsTextQuery(query.textQuery) : toFtsQuery(query.text);
  // A structured query with no word left finds nothing; plain text without words finds everything.
  if (match === undefined && query.textQuery !== undefined) return undefined;
  const types = query.types?.length ? query.types : ITEM_TYPES;
  const where: string[] = [`k.type IN (${sqlList(types)})`];
  let from: string;
  if (match !== undefined) {
    params.match = match;
    const rows = [`item_text MATCH @match`, typeFilter(typeCodes(types))];
    if (subtree) rows.push('item_text.rowid BETWEEN @firstRow AND @lastRow');
    from = `(SELECT rowid ${RID_OF_ROW} AS rid, ${SCORE} AS score FROM item_text WHERE ${rows.join(' AND ')}) m
      JOIN item k ON k.rid = m.rid`;
  } else if (query.scope?.depth === 'children') {
    from = `(SELECT DISTINCT src FROM edge WHERE dst = @scope AND type IN (${CHILD_EDGES})) e
      JOIN item k ON k.id = e.src`;
  } else {
    from = 'item k';
  }
  if (query.scope?.depth === 'children') {
    params.scope = query.scope.id;
    if (match !== undefined) {
      where.push(
        `EXISTS (SELECT 1 FROM edge e WHERE e.src = k.id AND e.dst = @scope AND e.type IN (${CHILD_EDGES}))`,
      );
    }
  } else if (query.scope?.depth === 'descendants') {
    if (!subtree) throw new Error('A search of descendants needs the subtree of its scope');
    Object.assign(params, subtree);
    where.push('k.path >= @below AND k.path < @belowEnd');
  }
  const { languages, countries, holders, ids } = query.filters ?? {};
  if (languages?.length) {
    params.languages = JSON.stringify(languages);
    where.push(
      `EXISTS (SELECT 1 FROM dependent d WHERE ${OWN_DESCRIPTIONS} AND ${LANGUAGE} IN (SELECT value FROM json_each(@languages)))`,
    );
  }
  if (countries?.length) {
    params.countries = JSON.stringify(countries);
    where.push(`(${COUNTRY}) IN (SELECT value FROM json_each(@countries))`);
  }
  if (holders?.length) {
    params.holders = JSON.stringify(holders);
    where.push(`(${HOLDER}) IN (SELECT value FROM json_each(@holders))`);
  }
  if (ids !== undefined) {
    params.ids = JSON.stringify(ids);
    where.push('k.id IN (SELECT value FROM json_each(@ids))');
  }
  const facets = new Set(query.facets ?? []);
  const columns = [
    'k.id',
    'k.type',
    facets.has('country') ? `${COUNTRY} AS country` : 'NULL AS country',
    facets.has('holder') ? `${HOLDER} AS holder` : 'NULL AS holder',
    facets.has('lang') ? `${LANGUAGES} AS languages` : 'NULL AS languages',
  ];
  return {
    sql: `WITH ${KEYED_TOPS} SELECT ${columns.join(', ')} FROM ${from} WHERE ${where.join(' AND ')}
      ORDER BY ${orderBy(query, match !== undefined)}`,
    params,
  };
}

const FACET_VALUES: Record<FacetField, (hit: FacetedHit) => string[]> = {
  type: (hit) => [hit.type],
  lang: (hit) => (hit.languages === null ? [] : hit.languages.split(',')),
  country: (hit) => (hit.country === null ? [] : [hit.country]),
  holder: (hit) => (hit.holder === null ? [] : [hit.holder]),
};

/** A page of the hits, their total and the counts of the facets asked for. */
export function facetedResult(hits: readonly FacetedHit[], query: SearchQuery): SearchResult {
  const result: SearchResult = {
    total: hits.length,
    hits: hits.slice(query.offset, query.offset + query.limit).map(({ id, type }) => ({ id, type })),
  };
  if (query.facets?.length) {
    result.facets = {};
    for (const facet of query.facets) result.facets[facet] = countedValues(hits.flatMap(FACET_VALUES[facet]));
  }
  return result;
}
