import { ITEM_TYPES } from '../../items/item-types';
import { SEARCH_ORDER_KEYS, SearchOrderKey } from '../graph-store';
import { BESIDE, itemRow, RECORD } from './cypher-page-items';
import { ITEM_LABEL, SEARCH_INDEX, TYPE, UPDATED } from './graph-model';
import { CHILD_EDGES, matchItem, statement } from './cypher-statements';
import { COUNTRY, DESCRIPTIONS, DETAIL, HOLDER, HOLDER_NAME, HOLDINGS, NAME } from './search-fragments';

/**
 * A portal answer's reads as one statement (`GraphReader.readPage`): the page of hits with the
 * items they show, the total and facet values, the items beside the page and a record. Its cost
 * follows the page, or a bound, rather than the store:
 * - with text, the full-text index ranks the hits and only its best `$examine` are looked at:
 *   their types, scope and filters checked, the total and facets counted, the page sorted;
 * - without text, the `_updated` or id index lists every item in order, so only a page's worth of
 *   items is read; the total and facets count the first `$examine` hits kept;
 * - only the page's items (and the items beside it) are read in full.
 * `bounded` says when `$examine` was reached: the total and facets are then a lower bound.
 */

export type PageSource = 'text' | 'browse';
/** Everywhere, below a scope item (its children, or its descendants by its type), or linked to an item. */
export type PageScope = 'everywhere' | 'scoped' | 'linked';
export type PageDirection = 'ascending' | 'descending';

/** The index that lists every item in an order, where one does. */
const ORDER_INDEX: Partial<Record<SearchOrderKey, string>> = { updated: UPDATED, id: 'id' };

/** What a scope matches before the candidates, and the variables it carries along. */
const SCOPE_LEAD: Record<PageScope, { match: string; carried: string }> = {
  everywhere: { match: '', carried: '' },
  scoped: {
    match: `${matchItem('scope', '$scopeId')} WITH scope, scope.${TYPE} IN $deepTypes AS deep`,
    carried: 'scope, deep, ',
  },
  linked: { match: matchItem('linked', '$linkedTo'), carried: 'linked, ' },
};

/**
 * Whether a text hit lies in the scope. Walked up from the hit, whose ancestry is one short chain,
 * rather than down the scope's subtree, which may hold most of the store.
 */
const WITHIN: Record<PageScope, string> = {
  everywhere: '',
  scoped: ` AND CASE WHEN deep THEN EXISTS { MATCH (node)-[:${CHILD_EDGES}*]->(scope) }
      ELSE EXISTS { MATCH (node)-[:${CHILD_EDGES}]->(scope) } END`,
  linked: ` AND node <> linked
      AND EXISTS { MATCH (node)<-[:hasLinkTarget]-(:${ITEM_LABEL})-[:hasLinkTarget]->(linked) }`,
};

/** The candidates of a browse (no text) in a scope, as `node` with a `score` of 0. */
function browsed(scope: PageScope, orderKey?: SearchOrderKey): string {
  const { match } = SCOPE_LEAD[scope];
  if (scope === 'scoped') {
    return `${match}
      CALL (scope, deep) {
        MATCH (node:${ITEM_LABEL})-[:${CHILD_EDGES}]->(scope) RETURN node
        UNION
        MATCH (node:${ITEM_LABEL})-[:${CHILD_EDGES}*2..]->(scope) WHERE deep RETURN node
      }
      WITH node WHERE node.${TYPE} IN $types WITH node, 0.0 AS score`;
  }
  if (scope === 'linked') {
    return `${match}
      MATCH (linked)<-[:hasLinkTarget]-(:${ITEM_LABEL})-[:hasLinkTarget]->(node:${ITEM_LABEL})
      WHERE node <> linked AND node.${TYPE} IN $types
      WITH DISTINCT node WITH node, 0.0 AS score`;
  }
  // Browsing everything in an indexed order walks that index, so a page reads a page's worth.
  const ordered = orderKey && ORDER_INDEX[orderKey];
  const walk =
    ordered === undefined
      ? `MATCH (node:${ITEM_LABEL}) WHERE node.${TYPE} IN $types`
      : `MATCH (node:${ITEM_LABEL}) USING INDEX node:${ITEM_LABEL}(${ordered})
         WHERE node.${ordered} IS NOT NULL AND node.${TYPE} IN $types`;
  return `${walk} WITH node, 0.0 AS score`;
}

/** Whether `node` passes the filters; a null parameter keeps everything. */
const KEPT = `($ids IS NULL OR node.id IN $ids)
    AND ($languages IS NULL OR EXISTS { MATCH ${DESCRIPTIONS} WHERE description.languageCode IN $languages })
    AND ($countries IS NULL OR ${COUNTRY} IN $countries)
    AND ($holders IS NULL OR ${HOLDER} IN $holders)`;

/** The total of the `node` rows and the values of the facets asked for, each only when asked. */
const COUNTED = `WITH node,
        CASE WHEN $countTypes THEN node.${TYPE} END AS type,
        CASE WHEN $countLanguages
          THEN COLLECT { MATCH ${DESCRIPTIONS} RETURN DISTINCT description.languageCode } END AS languages,
        CASE WHEN $countCountries THEN ${COUNTRY} END AS country,
        CASE WHEN $countHolders THEN ${HOLDER} END AS holder
      RETURN count(node) AS total, collect(type) AS types, collect(languages) AS languages,
        collect(country) AS countries, collect(holder) AS holders`;

const SORT_KEY: Record<SearchOrderKey, string> = {
  score: '-score',
  updated: `node.${UPDATED}`,
  id: 'node.id',
  name: NAME,
  country: COUNTRY,
  holder: HOLDER_NAME,
  detail: DETAIL,
  holdings: HOLDINGS,
};

/** Keys every hit has: no "missing last" term, so that an index's order serves the sort. */
const ALWAYS_SET: readonly SearchOrderKey[] = ['score', 'updated', 'id'];

/**
 * The page of the `node`, `score` rows, collected as `page`. `direction` undefined: either, as
 * `$descending` says; only keys that every hit has get a statement per direction, whose plan an
 * index's order can serve.
 */
function paged(orderKey: SearchOrderKey, direction: PageDirection | undefined): string {
  const order =
    direction !== undefined
      ? `ORDER BY ${SORT_KEY[orderKey]} ${direction === 'ascending' ? 'ASC' : 'DESC'}, node.id`
      : `ORDER BY sortKey IS NULL, CASE WHEN $descending THEN null ELSE sortKey END ASC,
          CASE WHEN $descending THEN sortKey END DESC, node.id`;
  const sortKey = ALWAYS_SET.includes(orderKey) ? '' : `, ${SORT_KEY[orderKey]} AS sortKey`;
  return `WITH node, score${sortKey}
      ${order}
      SKIP $offset LIMIT $limit
      RETURN collect(node) AS page`;
}

/**
 * A text search: the index's best `$examine` hits, in its order, are checked once (type, scope,
 * filters); the total, the facets and the page come from those kept.
 */
function textSearch(scope: PageScope, orderKey: SearchOrderKey, direction: PageDirection | undefined) {
  const { match, carried } = SCOPE_LEAD[scope];
  return `
    CALL () {
      ${match}
      CALL db.index.fulltext.queryNodes('${SEARCH_INDEX}', $query) YIELD node, score
      WITH ${carried}node, score LIMIT $examine
      WITH node, score, node.${TYPE} IN $types${WITHIN[scope]} AND ${KEPT} AS kept
      RETURN count(*) AS examined, collect(CASE WHEN kept THEN {node: node, score: score} END) AS found
    }
    CALL (found) {
      UNWIND found AS hit
      WITH hit.node AS node
      ${COUNTED}
    }
    CALL (found) {
      UNWIND found AS hit
      WITH hit.node AS node, hit.score AS score
      ${paged(orderKey, direction)}
    }`;
}

/** No filter and no facet: what browsing everything counts is every item of the types asked. */
const UNFILTERED = `$ids IS NULL AND $languages IS NULL AND $countries IS NULL AND $holders IS NULL
  AND NOT ($countTypes OR $countLanguages OR $countCountries OR $countHolders)`;

/**
 * The total of browsing everything unfiltered, from the counts Neo4j keeps of each label (every
 * item has its type's label), exact and without reading an item (`examined` 0: not bounded); with
 * a filter or a facet, `counted`, which returns the same columns.
 */
function countedByLabelOr(counted: string): string {
  const labelCounts = ITEM_TYPES.map(
    (type) => `CASE WHEN '${type}' IN $types THEN COUNT { MATCH (:${type}) } ELSE 0 END`,
  ).join(' + ');
  return `WITH 1 AS unfiltered WHERE ${UNFILTERED}
    RETURN ${labelCounts} AS total, [] AS types, [] AS languages, [] AS countries, [] AS holders,
      0 AS examined
    UNION
    WITH 1 AS filtered WHERE NOT (${UNFILTERED})
    CALL () { ${counted} }
    RETURN total, types, languages, countries, holders, examined`;
}

/**
 * A browse: the page walks the index of its order where there is one; the total and facets count
 * the first `$examine` hits kept, read from the type index or the scope, or (everywhere,
 * unfiltered) from the label counts.
 */
function browse(scope: PageScope, orderKey: SearchOrderKey, direction: PageDirection | undefined) {
  const counted = `${browsed(scope)} WITH node, score WHERE ${KEPT}
      WITH node LIMIT $examine
      ${COUNTED}, count(node) AS examined`;
  return `
    CALL () {
      ${scope === 'everywhere' ? countedByLabelOr(counted) : counted}
    }
    CALL () {
      ${browsed(scope, orderKey)} WITH node, score WHERE ${KEPT}
      ${paged(orderKey, direction)}
    }`;
}

function pageText(
  source: PageSource,
  scope: PageScope,
  orderKey: SearchOrderKey,
  direction: PageDirection | undefined,
) {
  const search = source === 'text' ? textSearch : browse;
  return `${search(scope, orderKey, direction)}
    CALL (page) {
      UNWIND range(0, size(page) - 1) AS position
      WITH position, page[position] AS node
      WITH position, ${itemRow('node')} AS row
      ORDER BY position
      RETURN collect(row) AS hits
    }
    ${BESIDE}
    RETURN total, examined >= $examine AS bounded, types, languages, countries, holders, hits, items,
      ${RECORD} AS record`;
}

export const PAGE_PARAMETERS = [
  'query',
  'types',
  'scopeId',
  'deepTypes',
  'linkedTo',
  'languages',
  'countries',
  'holders',
  'ids',
  'countTypes',
  'countLanguages',
  'countCountries',
  'countHolders',
  'examine',
  'descending',
  'offset',
  'limit',
  'itemIds',
  'context',
  'recordId',
] as const;
export type PageParameter = (typeof PAGE_PARAMETERS)[number];

function pageStatement(
  source: PageSource,
  scope: PageScope,
  orderKey: SearchOrderKey,
  direction?: PageDirection,
) {
  return statement(
    `PAGE.${source}.${scope}.${orderKey}${direction === undefined ? '' : `.${direction}`}`,
    PAGE_PARAMETERS.filter(
      (parameter) =>
        (parameter !== 'query' || source === 'text') &&
        (parameter !== 'descending' || direction === undefined) &&
        (!['scopeId', 'deepTypes'].includes(parameter) || scope === 'scoped') &&
        (parameter !== 'linkedTo' || scope === 'linked'),
    ),
    pageText(source, scope, orderKey, direction),
  );
}

/** The statements by source, scope, order key and direction; relevance is for text alone. */
export const PAGE = Object.fromEntries(
  (['text', 'browse'] as const).map((source) => [
    source,
    Object.fromEntries(
      (['everywhere', 'scoped', 'linked'] as const).map((scope) => [
        scope,
        Object.fromEntries(
          SEARCH_ORDER_KEYS.filter((key) => key !== 'score' || source === 'text').map((key) => {
            if (!ALWAYS_SET.includes(key)) {
              const either = pageStatement(source, scope, key);
              return [key, { ascending: either, descending: either }];
            }
            return [
              key,
              {
                ascending: pageStatement(source, scope, key, 'ascending'),
                descending: pageStatement(source, scope, key, 'descending'),
              },
            ];
          }),
        ),
      ]),
    ),
  ]),
) as Record<
  PageSource,
  Record<PageScope, Partial<Record<SearchOrderKey, Record<PageDirection, ReturnType<typeof statement>>>>>
>;

/** Reads the items beside a page and the record, for a request without a search (a fetch). */
export const PAGE_ITEMS = statement(
  'PAGE_ITEMS',
  ['itemIds', 'context', 'recordId'],
  `WITH [] AS holders
   ${BESIDE}
   RETURN 0 AS total, false AS bounded, [] AS types, [] AS languages, [] AS countries, holders,
     [] AS hits, items, ${RECORD} AS record`,
);

/** The page statements' names, for the plans test: those that walk an index of every item in order. */
export const PAGE_BROWSING_EVERYTHING = Object.keys(ORDER_INDEX).flatMap((key) =>
  Object.values(PAGE.browse.everywhere[key as SearchOrderKey] ?? {}).map(({ name }) => name),
);
