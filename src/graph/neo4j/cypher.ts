import {
  CHILD_EDGE_TYPES,
  DEPENDENT_RELATIONS,
  DEPENDENT_TYPES,
  DependentRelation,
  DependentType,
  ITEM_EDGE_TYPES,
  ITEM_TYPES,
  ItemEdgeType,
} from '../../items/item-types';
import {
  DEPENDENT_LABEL,
  HASH,
  IDENTIFIERS,
  ITEM_LABEL,
  NAMES,
  OLD_SEARCH_INDEX,
  OWNER,
  PENDING_LABEL,
  RECORD_LABEL,
  SCOPE_AND_CONTENT,
  SEARCH_INDEX,
  TEXT,
  TITLES,
  TYPE,
  UPDATED,
  WRITE_LOCK_LABEL,
} from './graph-model';

/**
 * Every Cypher statement the Neo4j adapter can send. Labels and relationship types that vary are
 * spelled out at module load from the fixed lists of the item model, never from input, so the
 * lint test (`test/graph/cypher-lint.spec.ts`) sees each statement exactly as it is sent.
 */
export interface CypherStatement<P extends string = string> {
  readonly name: string;
  readonly text: string;
  /** The `$parameters` the text uses, all of which the caller must give. */
  readonly parameters: readonly P[];
}

const registry: CypherStatement[] = [];

/** All statements defined below, for the lint test. */
export const ALL_STATEMENTS: readonly CypherStatement[] = registry;

function statement<const P extends string>(
  name: string,
  parameters: readonly P[],
  text: string,
): CypherStatement<P> {
  const defined = { name, parameters, text: text.trim().replace(/\s+/g, ' ') };
  registry.push(defined);
  return defined;
}

/** One statement per member of a fixed list (a label or a relationship type). */
function statementPer<K extends string, const P extends string>(
  names: readonly K[],
  family: string,
  parameters: readonly P[],
  text: (name: K) => string,
): Record<K, CypherStatement<P>> {
  return Object.fromEntries(
    names.map((name) => [name, statement(`${family}[${identifier(name)}]`, parameters, text(name))]),
  ) as Record<K, CypherStatement<P>>;
}

/** Names spliced into Cypher come from the model; this keeps a bad one from ever reaching a query. */
function identifier(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`Not a plain Cypher identifier: ${name}`);
  return name;
}

const DEPENDENT_RELATION_NAMES = Object.keys(DEPENDENT_RELATIONS) as DependentRelation[];
const CHILD_EDGES = CHILD_EDGE_TYPES.map(identifier).join('|');
const ITEM_EDGES = ITEM_EDGE_TYPES.map(identifier).join('|');
const DEPENDENT_EDGES = DEPENDENT_RELATION_NAMES.map(identifier).join('|');

/** `REMOVE` of every type label but `type`, so a node whose type changed keeps one type label. */
function removeOtherLabels(variable: string, labels: readonly string[], type: string): string {
  return `REMOVE ${variable}:${labels
    .filter((label) => label !== type)
    .map(identifier)
    .join(':')}`;
}

/** The UNION branches that bind `variable` to the item or the dependent whose id is `idExpression`. */
function writtenNodeBranches(variable: string, idExpression: string): string {
  return `MATCH (${variable}:${ITEM_LABEL} {id: ${idExpression}}) RETURN ${variable}
    UNION
    MATCH (${variable}:${DEPENDENT_LABEL} {id: ${idExpression}}) RETURN ${variable}`;
}

/**
 * Binds `variable` to the item or dependent whose id is `idExpression`: item edges point at items,
 * and `hasLinkBody` at an access point, which is a dependent.
 */
function nodeWithId(variable: string, idExpression: string, imported: string): string {
  return `CALL (${imported}) {
    ${writtenNodeBranches(variable, idExpression)}
  }`;
}

/**
 * Binds `variable` as `nodeWithId` does or, while no such node is written, to the placeholder that
 * stands for it, created if need be. `imported` is a variable that `idExpression` is built from.
 */
function nodeOrPlaceholderWithId(variable: string, idExpression: string, imported: string): string {
  return `CALL (${imported}) {
    ${writtenNodeBranches(variable, idExpression)}
    UNION
    WITH ${imported}
    WHERE NOT EXISTS { (:${ITEM_LABEL} {id: ${idExpression}}) }
      AND NOT EXISTS { (:${DEPENDENT_LABEL} {id: ${idExpression}}) }
    MERGE (${variable}:${PENDING_LABEL} {id: ${idExpression}})
    RETURN ${variable}
  }`;
}

/**
 * Whether `variable`, the target of an item edge, is a written item or dependent. Item edges end
 * at those or at placeholders, so a placeholder is the target that is neither: no statement looks
 * placeholders up by their label, they are reached only through the edges that point at them (and
 * the lint schema, which lists the labels statements may match, leaves `Pending` out).
 */
function isWritten(variable: string): string {
  return `(${variable}:${ITEM_LABEL} OR ${variable}:${DEPENDENT_LABEL})`;
}

/** Deletes the placeholders among `variable`'s nodes that no edge points at any more. */
function deleteUnusedPlaceholders(variable: string): string {
  return `WITH DISTINCT ${variable}
    WHERE NOT ${isWritten(variable)} AND NOT EXISTS { (${variable})--() }
    DELETE ${variable}`;
}

/**
 * Makes the node of `props.id` exist under `label` before it is matched there: the placeholder
 * that earlier edges point at becomes it (MERGE finds it) or, with none, a new node is made. Runs
 * only while no node matches `written`, so a placeholder never coexists with its node.
 */
function claimPlaceholder(label: string, written: string, setAlso = ''): string {
  return `CALL (props) {
    WITH props WHERE NOT EXISTS { ${written} }
    MERGE (claimed:${PENDING_LABEL} {id: props.id})
    SET claimed:${identifier(label)}${setAlso}
    REMOVE claimed:${PENDING_LABEL}
  }`;
}

// ---- schema ------------------------------------------------------------------------------------

export const SCHEMA_STATEMENTS = [
  statement(
    'ITEM_ID_CONSTRAINT',
    [],
    `CREATE CONSTRAINT item_id IF NOT EXISTS FOR (n:${ITEM_LABEL}) REQUIRE n.id IS UNIQUE`,
  ),
  // Placeholders have no `Item` label, so the item constraint does not cover them: this one keeps
  // one placeholder per id when writers race, and indexes the MERGE that finds or makes them.
  statement(
    'PENDING_ID_CONSTRAINT',
    [],
    `CREATE CONSTRAINT pending_id IF NOT EXISTS FOR (n:${PENDING_LABEL}) REQUIRE n.id IS UNIQUE`,
  ),
  statement(
    'RECORD_ID_CONSTRAINT',
    [],
    `CREATE CONSTRAINT record_id IF NOT EXISTS FOR (n:${RECORD_LABEL}) REQUIRE n.id IS UNIQUE`,
  ),
  statement(
    'WRITE_LOCK_CONSTRAINT',
    [],
    `CREATE CONSTRAINT write_lock_id IF NOT EXISTS FOR (n:${WRITE_LOCK_LABEL}) REQUIRE n.id IS UNIQUE`,
  ),
  statement(
    'ITEM_TYPE_INDEX',
    [],
    `CREATE INDEX item_type IF NOT EXISTS FOR (n:${ITEM_LABEL}) ON (n.${TYPE})`,
  ),
  statement(
    'DEPENDENT_OWNER_INDEX',
    [],
    `CREATE INDEX dependent_owner IF NOT EXISTS FOR (n:${DEPENDENT_LABEL}) ON (n.${OWNER})`,
  ),
  statement(
    'DEPENDENT_ID_INDEX',
    [],
    `CREATE INDEX dependent_id IF NOT EXISTS FOR (n:${DEPENDENT_LABEL}) ON (n.id)`,
  ),
  statement(
    'RECORD_TYPE_INDEX',
    [],
    `CREATE INDEX record_type IF NOT EXISTS FOR (n:${RECORD_LABEL}) ON (n.${TYPE})`,
  ),
  statement(
    'ACCESS_POINT_NAME_INDEX',
    [],
    'CREATE INDEX access_point_name IF NOT EXISTS FOR (n:AccessPoint) ON (n.name)',
  ),
  // The words are folded and split in TypeScript (search-words.ts), so the index only splits on
  // white space: the index and the query see the very same words.
  statement(
    'SEARCH_INDEX',
    [],
    `CREATE FULLTEXT INDEX ${SEARCH_INDEX} IF NOT EXISTS
     FOR (n:${ITEM_LABEL}) ON EACH [n.${NAMES}, n.${TEXT}, n.${TITLES}, n.${IDENTIFIERS}, n.${SCOPE_AND_CONTENT}]
     OPTIONS { indexConfig: { \`fulltext.analyzer\`: 'whitespace' } }`,
  ),
  statement('DROP_OLD_SEARCH_INDEX', [], `DROP INDEX ${OLD_SEARCH_INDEX} IF EXISTS`),
  // The portal lists the most recently updated first.
  statement(
    'UPDATED_INDEX',
    [],
    `CREATE INDEX item_updated IF NOT EXISTS FOR (n:${ITEM_LABEL}) ON (n.${UPDATED})`,
  ),
];

export const AWAIT_INDEXES = statement(
  'AWAIT_INDEXES',
  ['timeoutSeconds'],
  'CALL db.awaitIndexes($timeoutSeconds)',
);

// ---- writing items -----------------------------------------------------------------------------

/**
 * The first statement of every write transaction: writing the lock node takes its write lock,
 * which Neo4j holds until the transaction ends, so a second writer waits here, before it has
 * locked anything else. Made if missing (an emptied database); the constraint keeps it one.
 */
export const TAKE_WRITE_LOCK = statement(
  'TAKE_WRITE_LOCK',
  ['now'],
  `MERGE (lock:${WRITE_LOCK_LABEL} {id: 'writers'}) SET lock.taken = $now`,
);

/**
 * `rows`: item property maps with bookkeeping; `now`: the time to record when the hash changed. An
 * item that edges already point at takes over their placeholder, and so the edges.
 */
export const MERGE_ITEMS = statementPer(
  ITEM_TYPES,
  'MERGE_ITEMS',
  ['rows', 'now'],
  (type) => `
    UNWIND $rows AS props
    ${claimPlaceholder(ITEM_LABEL, `(:${ITEM_LABEL} {id: props.id})`)}
    MATCH (item:${ITEM_LABEL} {id: props.id})
    WITH item, props, CASE WHEN item.${HASH} = props.${HASH} THEN item.${UPDATED} ELSE $now END AS updated
    SET item = props
    SET item.${UPDATED} = updated
    SET item:${identifier(type)}
    ${removeOtherLabels('item', ITEM_TYPES, type)}`,
);

/** `rows`: `{owner, keep}`, the dependent ids each item keeps; the others go, with their edges. */
export const PRUNE_DEPENDENTS = statement(
  'PRUNE_DEPENDENTS',
  ['rows'],
  `UNWIND $rows AS row
   MATCH (dependent:${DEPENDENT_LABEL} {${OWNER}: row.owner})
   WHERE NOT dependent.id IN row.keep
   DETACH DELETE dependent`,
);

/** Drops the relationships inside the bundles of `owners`, which are then written afresh. */
export const UNLINK_DEPENDENTS = statement(
  'UNLINK_DEPENDENTS',
  ['owners'],
  `UNWIND $owners AS owner
   MATCH (:${DEPENDENT_LABEL} {${OWNER}: owner})-[link:${DEPENDENT_EDGES}]-()
   WITH DISTINCT link
   DELETE link`,
);

/**
 * `rows`: dependent property maps with bookkeeping. Matched on (owner, id) rather than recreated,
 * so that item edges to a dependent that survives a rewrite (a link's body) survive too; a new
 * dependent takes over the placeholder of edges written before it, as an item does.
 */
export const MERGE_DEPENDENTS = statementPer(
  DEPENDENT_TYPES,
  'MERGE_DEPENDENTS',
  ['rows'],
  (type: DependentType) => `
    UNWIND $rows AS props
    ${claimPlaceholder(
      DEPENDENT_LABEL,
      `(:${DEPENDENT_LABEL} {${OWNER}: props.${OWNER}, id: props.id})`,
      `, claimed.${OWNER} = props.${OWNER}`,
    )}
    MATCH (dependent:${DEPENDENT_LABEL} {${OWNER}: props.${OWNER}, id: props.id})
    SET dependent = props
    SET dependent:${identifier(type)}
    ${removeOtherLabels('dependent', DEPENDENT_TYPES, type)}`,
);

function linkDependents(relation: DependentRelation, parentMatch: string): string {
  const [from, to] = DEPENDENT_RELATIONS[relation] === 'out' ? ['parent', 'child'] : ['child', 'parent'];
  return `
    UNWIND $rows AS row
    MATCH ${parentMatch}
    MATCH (child:${DEPENDENT_LABEL} {${OWNER}: row.owner, id: row.child})
    CREATE (${from})-[:${identifier(relation)}]->(${to})`;
}

/** `rows`: `{owner, child}`; ties a dependent to the item that owns it, in the relation's direction. */
export const LINK_TO_ITEM = statementPer(DEPENDENT_RELATION_NAMES, 'LINK_TO_ITEM', ['rows'], (relation) =>
  linkDependents(relation, `(parent:${ITEM_LABEL} {id: row.owner})`),
);

/** `rows`: `{owner, parent, child}`; ties a dependent to the dependent above it. */
export const LINK_TO_DEPENDENT = statementPer(
  DEPENDENT_RELATION_NAMES,
  'LINK_TO_DEPENDENT',
  ['rows'],
  (relation) => linkDependents(relation, `(parent:${DEPENDENT_LABEL} {${OWNER}: row.owner, id: row.parent})`),
);

/** `ids`: items whose outgoing edges of one type go, with the placeholders only they needed. */
export const DELETE_EDGES = statementPer(
  ITEM_EDGE_TYPES,
  'DELETE_EDGES',
  ['ids'],
  (type: ItemEdgeType) => `
    UNWIND $ids AS id
    MATCH (:${ITEM_LABEL} {id: id})-[edge:${identifier(type)}]->(target)
    DELETE edge
    ${deleteUnusedPlaceholders('target')}`,
);

/**
 * `rows`: `{from, to}`; MERGE makes an existing edge a no-op. A target not written yet gets a
 * placeholder, which the target takes over when it is written.
 */
export const ADD_EDGES = statementPer(
  ITEM_EDGE_TYPES,
  'ADD_EDGES',
  ['rows'],
  (type) => `
    UNWIND $rows AS row
    MATCH (source:${ITEM_LABEL} {id: row.from})
    ${nodeOrPlaceholderWithId('target', 'row.to', 'row')}
    MERGE (source)-[:${identifier(type)}]->(target)`,
);

/** Either end may be a placeholder; one that no edge points at afterwards goes. */
export const RETARGET_EDGES = statementPer(
  ITEM_EDGE_TYPES,
  'RETARGET_EDGES',
  ['fromId', 'toId'],
  (type) => `
    WITH $fromId AS fromId, $toId AS toId
    ${nodeOrPlaceholderWithId('previous', 'fromId', 'fromId')}
    ${nodeOrPlaceholderWithId('replacement', 'toId', 'toId')}
    CALL (previous, replacement) {
      MATCH (source:${ITEM_LABEL})-[edge:${identifier(type)}]->(previous)
      MERGE (source)-[:${identifier(type)}]->(replacement)
      DELETE edge
    }
    UNWIND [previous, replacement] AS edgeEnd
    ${deleteUnusedPlaceholders('edgeEnd')}`,
);

/**
 * Deletes the items, their dependents and every edge touching them, and the placeholders that only
 * their edges pointed at. Edges from other items to a deleted item go with it: writing the id
 * again does not bring them back.
 */
export const DELETE_ITEMS = statement(
  'DELETE_ITEMS',
  ['ids'],
  `UNWIND $ids AS id
   MATCH (item:${ITEM_LABEL} {id: id})
   CALL (id) {
     MATCH (dependent:${DEPENDENT_LABEL} {${OWNER}: id})
     DETACH DELETE dependent
   }
   WITH item, COLLECT {
     MATCH (item)-[:${ITEM_EDGES}]->(target) WHERE NOT ${isWritten('target')} RETURN target
   } AS placeholders
   DETACH DELETE item
   WITH placeholders
   UNWIND placeholders AS placeholder
   ${deleteUnusedPlaceholders('placeholder')}`,
);

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
export type SearchSource = 'text' | 'browse';

const TYPE_FILTER = `(size($types) = 0 OR node.${TYPE} IN $types)`;

const SCOPE_PATTERN: Record<Exclude<SearchScope, 'everywhere'>, string> = {
  children: `-[:${CHILD_EDGES}]->`,
  descendants: `-[:${CHILD_EDGES}*]->`,
};

/** The descriptions of `node`. */
const DESCRIPTIONS = `(description:${DEPENDENT_LABEL})-[:describes]->(node)`;
/** A country is its own country; anything else is in the country its hierarchy ends at. */
const COUNTRY = `CASE WHEN node.${TYPE} = 'Country' THEN node.id
  ELSE COLLECT { MATCH (node)-[:${CHILD_EDGES}*]->(country:Country) RETURN country.id LIMIT 1 }[0] END`;
/** A unit's holder: the repository its hierarchy reaches. */
const HOLDER = `CASE WHEN node.${TYPE} = 'DocumentaryUnit'
  THEN COLLECT { MATCH (node)-[:childOf*0..]->(:${ITEM_LABEL})-[:heldBy]->(holder:Repository) RETURN holder.id LIMIT 1 }[0] END`;
/** The smallest of an item's names, case folded: its descriptions', or else its own (a country's). */
const NAME = `coalesce(
  COLLECT { MATCH ${DESCRIPTIONS} RETURN toLower(description.name) AS name ORDER BY name LIMIT 1 }[0],
  toLower(node.name), '')`;

const FULLTEXT_MATCH = `CALL db.index.fulltext.queryNodes('${SEARCH_INDEX}', $query) YIELD node, score WHERE ${TYPE_FILTER}`;

/** The hits of a source within a scope, each with its `score` (0 without text). */
function searchMatch(source: SearchSource, scope: SearchScope): string {
  const inScope =
    scope === 'everywhere'
      ? ''
      : ` AND EXISTS { (node)${SCOPE_PATTERN[scope]}(:${ITEM_LABEL} {id: $scopeId}) }`;
  if (source === 'text') return `${FULLTEXT_MATCH}${inScope}`;
  if (scope === 'everywhere')
    return `MATCH (node:${ITEM_LABEL}) WHERE ${TYPE_FILTER} WITH node, 0.0 AS score`;
  return `MATCH (node:${ITEM_LABEL})${SCOPE_PATTERN[scope]}(:${ITEM_LABEL} {id: $scopeId})
    WITH DISTINCT node WHERE ${TYPE_FILTER} WITH node, 0.0 AS score`;
}

/**
 * The hits, filtered, with the values filters, facets and the order need: each worked out only
 * when a parameter asks for it. Null filters keep everything.
 */
function filteredHits(source: SearchSource, scope: SearchScope): string {
  return `${searchMatch(source, scope)}
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
  'countCountries',
  'countHolders',
] as const;

/**
 * One family of statements per source and scope: `page`, a page in the order `orderKey` names
 * (`score`: relevance, best first; `updated`, `name`, `id`), reversed by `descending`, ties by id;
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
      ELSE node.id END`;
  return {
    page: statement(
      `${name}.page`,
      [...scoped, 'orderKey', 'descending', 'offset', 'limit'],
      `${filteredHits(source, scope)}
       WITH node, ${sortKey} AS sortKey
       RETURN node.id AS id, node.${TYPE} AS type
       ORDER BY CASE WHEN $descending THEN null ELSE sortKey END ASC,
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
