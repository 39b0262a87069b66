import { ITEM_EDGE_TYPES } from '../../items/item-types';
import { HASH, ITEM_LABEL, OWNER, RECORD_LABEL, SEARCH_INDEX, TYPE, UPDATED } from './graph-model';
import {
  CHILD_EDGES,
  ITEM_EDGES,
  DEPENDENT_EDGES,
  statement,
  statementPer,
  identifier,
  nodeWithId,
  isWritten,
  indexSeek,
  matchDependentsOf,
  matchItem,
  seekItem,
} from './cypher-statements';
import { COUNTRY, DESCRIPTIONS, DETAIL, HOLDER, HOLDER_NAME, HOLDINGS, NAME } from './search-fragments';

/** The Neo4j adapter's statements that read: items, searches and records (see `cypher-statements.ts`). */

// ---- reading items -----------------------------------------------------------------------------

/** Each item with its dependents, the relationships among them, and its outgoing item edges. */
export const GET_ITEMS = statement(
  'GET_ITEMS',
  ['ids'],
  `UNWIND $ids AS id
   ${matchItem('item', 'id')}
   RETURN item,
     COLLECT { ${matchDependentsOf('dependent', 'id')} RETURN dependent } AS dependents,
     COLLECT {
       ${matchDependentsOf('owned', 'id', `-[link:${DEPENDENT_EDGES}]-()`)}
       RETURN DISTINCT link
     } AS links,
     COLLECT {
       MATCH (item)-[edge:${ITEM_EDGES}]->(target) WHERE ${isWritten('target')}
       RETURN {type: type(edge), target: target.id}
     } AS edges`,
);

/** Each item's value of one property (its hash or its type), as `value`. */
export const GET_ITEM_PROPERTY = statement(
  'GET_ITEM_PROPERTY',
  ['ids', 'property'],
  `UNWIND $ids AS id
   ${matchItem('item', 'id')}
   RETURN id, item[$property] AS value`,
);

export const SET_HASHES = statement(
  'SET_HASHES',
  ['rows'],
  `UNWIND $rows AS row
   ${matchItem('item', 'row.id')}
   SET item.${HASH} = row.hash`,
);

/**
 * The longest chain up to a root: where an item has more than one parent edge (a unit both
 * `childOf` its parent and `heldBy` the repository), the longer way is the one through its parent.
 */
export const ANCESTORS = statement(
  'ANCESTORS',
  ['ids'],
  `UNWIND $ids AS id
   ${matchItem('item', 'id')}
   CALL (item) {
     OPTIONAL MATCH chain = (item)-[:${CHILD_EDGES}*]->(root:${ITEM_LABEL})
     WHERE NOT EXISTS { (root)-[:${CHILD_EDGES}]->(:${ITEM_LABEL}) }
     RETURN chain
     ORDER BY length(chain) DESC, [node IN nodes(chain) | node.id]
     LIMIT 1
   }
   RETURN id, [ancestor IN coalesce(nodes(chain)[1..], []) | {id: ancestor.id, type: ancestor.${TYPE}}] AS ancestors`,
);

export const COUNT_CHILDREN = statement(
  'COUNT_CHILDREN',
  ['ids'],
  `UNWIND $ids AS id
   ${matchItem('item', 'id')}
   RETURN id, COUNT { MATCH (item)<-[:${CHILD_EDGES}]-(child:${ITEM_LABEL}) RETURN DISTINCT child } AS children`,
);

/** Each item below the root once, with its parent on its longest chain (as `ANCESTORS`). */
export const SUBTREE = statement(
  'SUBTREE',
  ['rootId'],
  `${matchItem('root', '$rootId')}
   MATCH chain = (root)<-[:${CHILD_EDGES}*]-(item:${ITEM_LABEL})
   WHERE item <> root
   WITH item, chain
   ORDER BY length(chain) DESC
   WITH item, head(collect(chain)) AS longest
   RETURN item.id AS id, item.${TYPE} AS type, item.identifier AS localId,
     nodes(longest)[-2].id AS parentId, length(longest) AS depth
   ORDER BY depth, id`,
);

export const FIND_ACCESS_POINTS = statement(
  'FIND_ACCESS_POINTS',
  ['scopeId', 'names'],
  `${matchItem('scope', '$scopeId')}
   MATCH (point:AccessPoint) ${indexSeek('point', 'AccessPoint', 'name')}
   WHERE point.name IN $names
   ${matchItem('item', `point.${OWNER}`)}
   WHERE EXISTS { (item)-[:${CHILD_EDGES}*]->(scope) }
   RETURN point.id AS accessPointId, item.id AS itemId, point.name AS name, point.type AS type
   ORDER BY itemId, accessPointId`,
);

export const INCOMING = statementPer(
  ITEM_EDGE_TYPES,
  'INCOMING',
  ['targetId'],
  (type) => `
    ${nodeWithId('target', '$targetId', '')}
    MATCH (source:${ITEM_LABEL})-[:${identifier(type)}]->(target)
    RETURN DISTINCT source.id AS id
    ORDER BY id`,
);

// ---- search ------------------------------------------------------------------------------------
// A portal answer's page is one statement of its own: `cypher-pages.ts`.

export type SearchScope = 'everywhere' | 'children' | 'descendants';
export type SearchSource = 'text' | 'browse';

const TYPE_FILTER = `(size($types) = 0 OR node.${TYPE} IN $types)`;

const SCOPE_PATTERN: Record<Exclude<SearchScope, 'everywhere'>, string> = {
  children: `-[:${CHILD_EDGES}]->`,
  descendants: `-[:${CHILD_EDGES}*]->`,
};

const FULLTEXT_MATCH = `CALL db.index.fulltext.queryNodes('${SEARCH_INDEX}', $query) YIELD node, score WHERE ${TYPE_FILTER}`;

/** The hits of a source within a scope, each with its `score` (0 without text). */
function searchMatch(source: SearchSource, scope: SearchScope): string {
  const inScope =
    scope === 'everywhere'
      ? ''
      : ` AND EXISTS {
          MATCH (node)${SCOPE_PATTERN[scope]}(scope:${ITEM_LABEL} {id: $scopeId}) ${seekItem('scope')}
        }`;
  if (source === 'text') return `${FULLTEXT_MATCH}${inScope}`;
  if (scope === 'everywhere')
    return `MATCH (node:${ITEM_LABEL}) WHERE ${TYPE_FILTER} WITH node, 0.0 AS score`;
  return `MATCH (node:${ITEM_LABEL})${SCOPE_PATTERN[scope]}(scope:${ITEM_LABEL} {id: $scopeId}) ${seekItem('scope')}
    WITH DISTINCT node WHERE ${TYPE_FILTER} WITH node, 0.0 AS score`;
}

/**
 * The hits, filtered, with the values filters, facets and the order need: each worked out only
 * when a parameter asks for it. Null filters keep everything.
 */
function filteredHits(source: SearchSource, scope: SearchScope): string {
  return `${searchMatch(source, scope)}
    WITH node, score WHERE $ids IS NULL OR node.id IN $ids
    WITH node, score,
      CASE WHEN $countries IS NOT NULL OR $countCountries THEN ${COUNTRY} END AS country,
      CASE WHEN $holders IS NOT NULL OR $countHolders THEN ${HOLDER} END AS holder
    WHERE ($languages IS NULL OR EXISTS { MATCH ${DESCRIPTIONS} WHERE description.languageCode IN $languages })
      AND ($countries IS NULL OR country IN $countries)
      AND ($holders IS NULL OR holder IN $holders)`;
}

const SEARCH_PARAMETERS = [
  'query',
  'types',
  'scopeId',
  'languages',
  'countries',
  'holders',
  'ids',
  'countCountries',
  'countHolders',
] as const;

/**
 * One family of statements per source and scope: `page`, a page in the order `orderKey` names
 * (`score`: relevance, best first; `updated`, `name`, `id`, `country`, `holder`, `detail`,
 * `holdings`: see `SearchOrder`), reversed by `descending`, ties by id, hits without a value last
 * (the hits' `country` and `holder` are dropped first: the sort key's subqueries bind names alike);
 * `summary`, the total and the values the facets asked for count (`countLanguages`, …).
 */
function searchStatements(source: SearchSource, scope: SearchScope) {
  const name = `SEARCH.${source}.${scope}`;
  const parameters = source === 'text' ? SEARCH_PARAMETERS : SEARCH_PARAMETERS.filter((p) => p !== 'query');
  const scoped = scope === 'everywhere' ? parameters.filter((p) => p !== 'scopeId') : parameters;
  const sortKey = `CASE $orderKey
      WHEN 'score' THEN -score
      WHEN 'updated' THEN node.${UPDATED}
      WHEN 'name' THEN ${NAME}
      WHEN 'country' THEN ${COUNTRY}
      WHEN 'holder' THEN ${HOLDER_NAME}
      WHEN 'detail' THEN ${DETAIL}
      WHEN 'holdings' THEN ${HOLDINGS}
      ELSE node.id END`;
  return {
    page: statement(
      `${name}.page`,
      [...scoped, 'orderKey', 'descending', 'offset', 'limit'],
      `${filteredHits(source, scope)}
       WITH node, score
       WITH node, ${sortKey} AS sortKey
       RETURN node.id AS id, node.${TYPE} AS type
       ORDER BY sortKey IS NULL, CASE WHEN $descending THEN null ELSE sortKey END ASC,
         CASE WHEN $descending THEN sortKey END DESC, node.id
       SKIP $offset LIMIT $limit`,
    ),
    summary: statement(
      `${name}.summary`,
      [...scoped, 'countLanguages', 'countTypes'],
      `${filteredHits(source, scope)}
       RETURN count(node) AS total,
         collect(CASE WHEN $countTypes THEN node.${TYPE} END) AS types,
         collect(country) AS countries,
         collect(holder) AS holders,
         collect(CASE WHEN $countLanguages THEN COLLECT { MATCH ${DESCRIPTIONS} RETURN DISTINCT description.languageCode } END) AS languages`,
    ),
  };
}

/** Every search, by source (with text or without) and scope. */
export const SEARCH = {
  text: {
    everywhere: searchStatements('text', 'everywhere'),
    children: searchStatements('text', 'children'),
    descendants: searchStatements('text', 'descendants'),
  },
  browse: {
    everywhere: searchStatements('browse', 'everywhere'),
    children: searchStatements('browse', 'children'),
    descendants: searchStatements('browse', 'descendants'),
  },
};

// ---- records -----------------------------------------------------------------------------------

/** `rows`: `{type, props}` with the id and type among the props. */
export const PUT_RECORDS = statement(
  'PUT_RECORDS',
  ['rows'],
  `UNWIND $rows AS row
   MERGE (record:${RECORD_LABEL} {id: row.props.id})
   SET record = row.props
   SET record:$(row.type)`,
);

export const GET_RECORD = statement(
  'GET_RECORD',
  ['id'],
  `MATCH (record:${RECORD_LABEL} {id: $id}) ${indexSeek('record', RECORD_LABEL, 'id')} RETURN record`,
);

/** Without a range, `from` and `to` are null and `rangeProperty` is not looked at. */
const RECORD_FILTER = `
  MATCH (record:${RECORD_LABEL} {${TYPE}: $type}) ${indexSeek('record', RECORD_LABEL, TYPE)}
  WHERE all(key IN keys($equals) WHERE record[key] = $equals[key])
    AND ($from IS NULL OR record[$rangeProperty] >= $from)
    AND ($to IS NULL OR record[$rangeProperty] <= $to)
    AND ($after IS NULL OR record.id > $after)`;
const RECORD_FILTER_PARAMETERS = ['type', 'equals', 'rangeProperty', 'from', 'to', 'after'] as const;

export const COUNT_RECORDS = statement(
  'COUNT_RECORDS',
  RECORD_FILTER_PARAMETERS,
  `${RECORD_FILTER} RETURN count(record) AS total`,
);

function findRecords(direction: 'ASC' | 'DESC') {
  return statement(
    `FIND_RECORDS.${direction}`,
    [...RECORD_FILTER_PARAMETERS, 'orderProperty', 'offset', 'limit'],
    `${RECORD_FILTER}
     RETURN record
     ORDER BY record[$orderProperty] ${direction}, record.id
     SKIP $offset LIMIT $limit`,
  );
}

export const FIND_RECORDS = { ascending: findRecords('ASC'), descending: findRecords('DESC') };

// ---- tests -------------------------------------------------------------------------------------

/**
 * Empties the database; only tests and benchmarks send it, to a database of their own. In batches
 * of their own transactions, so a large database does not need one transaction's memory: it must
 * be sent outside an explicit transaction (a session's `run`).
 */
export const DELETE_EVERYTHING = statement(
  'DELETE_EVERYTHING',
  [],
  'MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS',
);

export * from './cypher-pages';
export * from './cypher-item-list';
