import { ITEM_EDGE_TYPES } from '../../items/item-types';
import { DEPENDENT_LABEL, HASH, ITEM_LABEL, OWNER, RECORD_LABEL, SEARCH_INDEX, TYPE } from './graph-model';
import {
  CypherStatement,
  CHILD_EDGES,
  ITEM_EDGES,
  DEPENDENT_EDGES,
  statement,
  statementPer,
  identifier,
  nodeWithId,
  isWritten,
} from './cypher-statements';

/** The Neo4j adapter's statements that read: items, searches and records (see `cypher-statements.ts`). */

// ---- reading items -----------------------------------------------------------------------------

/** Each item with its dependents, the relationships among them, and its outgoing item edges. */
export const GET_ITEMS = statement(
  'GET_ITEMS',
  ['ids'],
  `UNWIND $ids AS id
   MATCH (item:${ITEM_LABEL} {id: id})
   RETURN item,
     COLLECT { MATCH (dependent:${DEPENDENT_LABEL} {${OWNER}: id}) RETURN dependent } AS dependents,
     COLLECT {
       MATCH (:${DEPENDENT_LABEL} {${OWNER}: id})-[link:${DEPENDENT_EDGES}]-()
       RETURN DISTINCT link
     } AS links,
     COLLECT {
       MATCH (item)-[edge:${ITEM_EDGES}]->(target) WHERE ${isWritten('target')}
       RETURN {type: type(edge), target: target.id}
     } AS edges`,
);

export const GET_HASHES = statement(
  'GET_HASHES',
  ['ids'],
  `UNWIND $ids AS id
   MATCH (item:${ITEM_LABEL} {id: id})
   RETURN id, item.${HASH} AS hash`,
);

export const SET_HASHES = statement(
  'SET_HASHES',
  ['rows'],
  `UNWIND $rows AS row
   MATCH (item:${ITEM_LABEL} {id: row.id})
   SET item.${HASH} = row.hash`,
);

export const GET_TYPES = statement(
  'GET_TYPES',
  ['ids'],
  `UNWIND $ids AS id
   MATCH (item:${ITEM_LABEL} {id: id})
   RETURN id, item.${TYPE} AS type`,
);

/**
 * The longest chain up to a root: where an item has more than one parent edge (a unit both
 * `childOf` its parent and `heldBy` the repository), the longer way is the one through its parent.
 */
export const ANCESTORS = statement(
  'ANCESTORS',
  ['ids'],
  `UNWIND $ids AS id
   MATCH (item:${ITEM_LABEL} {id: id})
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
   MATCH (item:${ITEM_LABEL} {id: id})
   RETURN id, COUNT { MATCH (item)<-[:${CHILD_EDGES}]-(child:${ITEM_LABEL}) RETURN DISTINCT child } AS children`,
);

/** Each item below the root once, with its parent on its longest chain (as `ANCESTORS`). */
export const SUBTREE = statement(
  'SUBTREE',
  ['rootId'],
  `MATCH (root:${ITEM_LABEL} {id: $rootId})
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
  `MATCH (scope:${ITEM_LABEL} {id: $scopeId})
   MATCH (point:AccessPoint)
   WHERE point.name IN $names
   MATCH (item:${ITEM_LABEL} {id: point.${OWNER}})
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

export type SearchScope = 'everywhere' | 'children' | 'descendants';

interface SearchStatements<P extends string> {
  count: CypherStatement<P>;
  page: CypherStatement<P | 'offset' | 'limit'>;
}

const TYPE_FILTER = `(size($types) = 0 OR node.${TYPE} IN $types)`;

const SCOPE_PATTERN: Record<Exclude<SearchScope, 'everywhere'>, string> = {
  children: `-[:${CHILD_EDGES}]->`,
  descendants: `-[:${CHILD_EDGES}*]->`,
};

function searchStatements<const P extends string>(
  name: string,
  parameters: readonly P[],
  matching: string,
  order: string,
): SearchStatements<P> {
  return {
    count: statement(`${name}.count`, parameters, `${matching} RETURN count(node) AS total`),
    page: statement(
      `${name}.page`,
      [...parameters, 'offset', 'limit'],
      `${matching} RETURN node.id AS id, node.${TYPE} AS type ORDER BY ${order} SKIP $offset LIMIT $limit`,
    ),
  };
}

const FULLTEXT_MATCH = `CALL db.index.fulltext.queryNodes('${SEARCH_INDEX}', $query) YIELD node, score WHERE ${TYPE_FILTER}`;
const RELEVANCE_ORDER = 'score DESC, id';

/** Search by words (`query`: a Lucene query from `search-words.ts`), within a scope or not. */
export const TEXT_SEARCH = {
  everywhere: searchStatements('TEXT_SEARCH.everywhere', ['query', 'types'], FULLTEXT_MATCH, RELEVANCE_ORDER),
  children: searchStatements(
    'TEXT_SEARCH.children',
    ['query', 'types', 'scopeId'],
    `${FULLTEXT_MATCH} AND EXISTS { (node)${SCOPE_PATTERN.children}(:${ITEM_LABEL} {id: $scopeId}) }`,
    RELEVANCE_ORDER,
  ),
  descendants: searchStatements(
    'TEXT_SEARCH.descendants',
    ['query', 'types', 'scopeId'],
    `${FULLTEXT_MATCH} AND EXISTS { (node)${SCOPE_PATTERN.descendants}(:${ITEM_LABEL} {id: $scopeId}) }`,
    RELEVANCE_ORDER,
  ),
};

/** Every item (of `types`), within a scope or not, by id. */
export const BROWSE = {
  everywhere: searchStatements(
    'BROWSE.everywhere',
    ['types'],
    `MATCH (node:${ITEM_LABEL}) WHERE ${TYPE_FILTER}`,
    'id',
  ),
  children: searchStatements(
    'BROWSE.children',
    ['types', 'scopeId'],
    `MATCH (node:${ITEM_LABEL})${SCOPE_PATTERN.children}(:${ITEM_LABEL} {id: $scopeId})
     WITH DISTINCT node WHERE ${TYPE_FILTER}`,
    'id',
  ),
  descendants: searchStatements(
    'BROWSE.descendants',
    ['types', 'scopeId'],
    `MATCH (node:${ITEM_LABEL})${SCOPE_PATTERN.descendants}(:${ITEM_LABEL} {id: $scopeId})
     WITH DISTINCT node WHERE ${TYPE_FILTER}`,
    'id',
  ),
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
  `MATCH (record:${RECORD_LABEL} {id: $id}) RETURN record`,
);

/** Without a range, `from` and `to` are null and `rangeProperty` is not looked at. */
const RECORD_FILTER = `
  MATCH (record:${RECORD_LABEL} {${TYPE}: $type})
  WHERE all(key IN keys($equals) WHERE record[key] = $equals[key])
    AND ($from IS NULL OR record[$rangeProperty] >= $from)
    AND ($to IS NULL OR record[$rangeProperty] <= $to)`;
const RECORD_FILTER_PARAMETERS = ['type', 'equals', 'rangeProperty', 'from', 'to'] as const;

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
