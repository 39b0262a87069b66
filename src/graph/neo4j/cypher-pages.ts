import { SEARCH_ORDER_KEYS, SearchOrderKey } from '../graph-store';
import { ITEM_LABEL, RECORD_LABEL, SEARCH_INDEX, TYPE, UPDATED } from './graph-model';
import {
  CHILD_EDGES,
  DEPENDENT_EDGES,
  ITEM_EDGES,
  indexSeek,
  isWritten,
  matchDependentsOf,
  matchItem,
  statement,
} from './cypher-statements';
import { COUNTRY, DESCRIPTIONS, DETAIL, HOLDER, HOLDER_NAME, HOLDINGS, NAME } from './search-fragments';

/**
 * A portal answer's reads as one statement (`GraphReader.readPage`): the page of hits with the
 * items they show, the total and facet values, the items beside the page and a record. Its cost
 * follows the page where an index gives the order: the full-text index ranks the hits, and without
 * text the `_updated` or id index lists them in order, so only a page's worth of items is read in
 * full; a total counts the hits without reading their descriptions.
 */

export type PageSource = 'text' | 'browse';
/** Everywhere, below a scope item (its children, or its descendants by its type), or linked to an item. */
export type PageScope = 'everywhere' | 'scoped' | 'linked';
export type PageDirection = 'ascending' | 'descending';

/** The holder a page shows for a unit: its first `heldBy` target, or the nearest repository above it. */
const PAGE_HOLDER = (node: string) => `CASE WHEN ${node}.${TYPE} = 'DocumentaryUnit' THEN coalesce(
    COLLECT { MATCH (${node})-[:heldBy]->(held:${ITEM_LABEL}) RETURN held.id AS id ORDER BY id LIMIT 1 }[0],
    COLLECT { MATCH path = (${node})-[:childOf]->(:${ITEM_LABEL})-[:${CHILD_EDGES}*0..]->(above:Repository)
      RETURN above.id AS id ORDER BY length(path) LIMIT 1 }[0]) END`;

/** What `PageItem` is made of for `node`: what `GET_ITEMS` reads, its children counted, its holder. */
const itemRow = (node: string) => `{
    item: ${node},
    dependents: COLLECT { ${matchDependentsOf('dependent', `${node}.id`)} RETURN dependent },
    links: COLLECT {
      ${matchDependentsOf('owned', `${node}.id`, `-[link:${DEPENDENT_EDGES}]-()`)}
      RETURN DISTINCT link
    },
    edges: COLLECT {
      MATCH (${node})-[edge:${ITEM_EDGES}]->(target) WHERE ${isWritten('target')}
      RETURN {type: type(edge), target: target.id}
    },
    subitems: COUNT { MATCH (${node})<-[:${CHILD_EDGES}]-(child:${ITEM_LABEL}) RETURN DISTINCT child },
    holder: ${PAGE_HOLDER(node)}
  }`;

/** The index that lists every item in an order, where one does. */
const ORDER_INDEX: Partial<Record<SearchOrderKey, string>> = { updated: UPDATED, id: 'id' };

/** The candidates of a source in a scope, as `node` with its `score` (0 without text). */
function candidates(source: PageSource, scope: PageScope, orderKey?: SearchOrderKey): string {
  const lead =
    scope === 'scoped'
      ? `${matchItem('scope', '$scopeId')} WITH scope, scope.${TYPE} IN $deepTypes AS deep`
      : scope === 'linked'
        ? matchItem('linked', '$linkedTo')
        : '';
  if (source === 'text') {
    const within =
      scope === 'scoped'
        ? ` AND EXISTS { MATCH path = (node)-[:${CHILD_EDGES}*]->(scope) WHERE deep OR length(path) = 1 }`
        : scope === 'linked'
          ? ` AND node <> linked AND EXISTS { MATCH (node)<-[:hasLinkTarget]-(:${ITEM_LABEL})-[:hasLinkTarget]->(linked) }`
          : '';
    return `${lead}
      CALL db.index.fulltext.queryNodes('${SEARCH_INDEX}', $query) YIELD node, score
      WHERE node.${TYPE} IN $types${within}`;
  }
  if (scope === 'scoped') {
    return `${lead}
      CALL (scope, deep) {
        MATCH (node:${ITEM_LABEL})-[:${CHILD_EDGES}]->(scope) RETURN node
        UNION
        MATCH (node:${ITEM_LABEL})-[:${CHILD_EDGES}*2..]->(scope) WHERE deep RETURN node
      }
      WITH node WHERE node.${TYPE} IN $types WITH node, 0.0 AS score`;
  }
  if (scope === 'linked') {
    return `${lead}
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

/** The filters that narrow the candidates; a null parameter keeps everything. */
const FILTERS = `WITH node, score
  WHERE ($ids IS NULL OR node.id IN $ids)
    AND ($languages IS NULL OR EXISTS { MATCH ${DESCRIPTIONS} WHERE description.languageCode IN $languages })
    AND ($countries IS NULL OR ${COUNTRY} IN $countries)
    AND ($holders IS NULL OR ${HOLDER} IN $holders)`;

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
 * `direction` undefined: either, as `$descending` says; only keys that every hit has get a
 * statement per direction, whose plan an index's order can serve.
 */
function pageText(
  source: PageSource,
  scope: PageScope,
  orderKey: SearchOrderKey,
  direction: PageDirection | undefined,
) {
  // Counted from the type index; paged from the index of the order, where there is one.
  const hits = `${candidates(source, scope)} ${FILTERS}`;
  const ordered = `${candidates(source, scope, orderKey)} ${FILTERS}`;
  const order =
    direction !== undefined
      ? `ORDER BY ${SORT_KEY[orderKey]} ${direction === 'ascending' ? 'ASC' : 'DESC'}, node.id`
      : `ORDER BY sortKey IS NULL, CASE WHEN $descending THEN null ELSE sortKey END ASC,
          CASE WHEN $descending THEN sortKey END DESC, node.id`;
  const sortKey = ALWAYS_SET.includes(orderKey) ? '' : `, ${SORT_KEY[orderKey]} AS sortKey`;
  return `
    CALL () {
      ${hits}
      WITH node,
        CASE WHEN $countTypes THEN node.${TYPE} END AS type,
        CASE WHEN $countLanguages
          THEN COLLECT { MATCH ${DESCRIPTIONS} RETURN DISTINCT description.languageCode } END AS languages,
        CASE WHEN $countCountries THEN ${COUNTRY} END AS country,
        CASE WHEN $countHolders THEN ${HOLDER} END AS holder
      RETURN count(node) AS total, collect(type) AS types, collect(languages) AS languages,
        collect(country) AS countries, collect(holder) AS holders
    }
    CALL () {
      ${ordered}
      WITH node, score${sortKey}
      ${order}
      SKIP $offset LIMIT $limit
      RETURN collect(node) AS page
    }
    CALL (page) {
      UNWIND range(0, size(page) - 1) AS position
      WITH position, page[position] AS node
      WITH position, ${itemRow('node')} AS row
      ORDER BY position
      RETURN collect(row) AS hits
    }
    ${BESIDE}
    RETURN total, types, languages, countries, holders, hits, items, ${RECORD} AS record`;
}

/** The items beside the page: those of `$itemIds`, their context, the holders a facet counts. */
const BESIDE = `CALL (holders) {
      CALL (holders) {
        UNWIND $itemIds AS id
        ${matchItem('node', 'id')}
        RETURN node
        UNION
        UNWIND CASE WHEN $context THEN $itemIds ELSE [] END AS id
        ${matchItem('unit', 'id')}
        WITH unit WHERE unit.${TYPE} = 'DocumentaryUnit'
        UNWIND [
          COLLECT { MATCH (unit)-[:childOf]->(parent:${ITEM_LABEL}) RETURN parent.id AS id ORDER BY id LIMIT 1 }[0],
          ${PAGE_HOLDER('unit')}
        ] AS relatedId
        WITH relatedId WHERE relatedId IS NOT NULL
        ${matchItem('node', 'relatedId')}
        RETURN node
        UNION
        UNWIND holders AS id
        WITH DISTINCT id
        ${matchItem('node', 'id')}
        RETURN node
      }
      WITH DISTINCT node
      WITH ${itemRow('node')} AS row
      RETURN collect(row) AS items
    }`;

const RECORD = `COLLECT {
    MATCH (record:${RECORD_LABEL} {id: $recordId}) ${indexSeek('record', RECORD_LABEL, 'id')} RETURN record
  }[0]`;

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
   RETURN 0 AS total, [] AS types, [] AS languages, [] AS countries, holders, [] AS hits, items,
     ${RECORD} AS record`,
);

/** The page statements' names, for the plans test: those that walk an index of every item in order. */
export const PAGE_BROWSING_EVERYTHING = Object.keys(ORDER_INDEX).flatMap((key) =>
  Object.values(PAGE.browse.everywhere[key as SearchOrderKey] ?? {}).map(({ name }) => name),
);
