import {
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
import {
  DEPENDENT_RELATION_NAMES,
  ITEM_EDGES,
  DEPENDENT_EDGES,
  statement,
  statementPer,
  identifier,
  removeOtherLabels,
  nodeOrPlaceholderWithId,
  isWritten,
  deleteUnusedPlaceholders,
  claimPlaceholder,
  matchDependent,
  matchDependentsOf,
  matchItem,
  seekItem,
} from './cypher-statements';

/**
 * The Neo4j adapter's statements: the schema and the writes here, the reads in `cypher-reads.ts`,
 * how statements are made in `cypher-statements.ts`. Importing this module loads them all.
 */

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
 * The first statement of every write transaction: removing a property of the lock node takes its
 * write lock, which Neo4j holds until the transaction ends, so a second writer waits here, before
 * it has locked anything else. The property is never there (but in a store an older version
 * wrote), so a transaction that writes nothing else changes nothing. Made if missing (an emptied
 * database); the constraint keeps it one.
 */
export const TAKE_WRITE_LOCK = statement(
  'TAKE_WRITE_LOCK',
  [],
  `MERGE (lock:${WRITE_LOCK_LABEL} {id: 'writers'}) REMOVE lock.taken`,
);

/**
 * The heap Neo4j estimates the write transaction marked `marker` (its metadata) holds, from
 * another session: the service's own limit on a transaction (`transaction-memory.ts`).
 */
export const TRANSACTION_MEMORY = statement(
  'TRANSACTION_MEMORY',
  ['marker'],
  `SHOW TRANSACTIONS YIELD metaData, estimatedUsedHeapMemory
   WHERE metaData.writer = $marker
   RETURN estimatedUsedHeapMemory AS heap`,
);

/** The server's maximum heap, in bytes, as its JVM reports it. */
export const SERVER_HEAP = statement(
  'SERVER_HEAP',
  [],
  `CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes
   RETURN attributes.HeapMemoryUsage.value.properties.max AS max`,
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
    ${claimPlaceholder(ITEM_LABEL, matchItem('written', 'props.id'))}
    ${matchItem('item', 'props.id')}
    WITH item, props, CASE WHEN item.${HASH} = props.${HASH} THEN item.${UPDATED} ELSE $now END AS updated
    SET item = props
    SET item.${UPDATED} = updated
    SET item:${identifier(type)}
    ${removeOtherLabels('item', ITEM_TYPES, type)}`,
);

/** `ids`: those among them that a placeholder stands for (edges written earlier point at them). */
export const PLACEHOLDERS_AMONG = statement(
  'PLACEHOLDERS_AMONG',
  ['ids'],
  `UNWIND $ids AS id
   MATCH (placeholder:${PENDING_LABEL} {id: id})
   RETURN placeholder.id AS id`,
);

/**
 * `rows`: property maps of items this transaction found absent (`Neo4jGraphWriter`) and no
 * placeholder stands for, so with no dependents nor edges of their own: made at once.
 */
export const CREATE_ITEMS = statementPer(
  ITEM_TYPES,
  'CREATE_ITEMS',
  ['rows', 'now'],
  (type) => `
    UNWIND $rows AS props
    CREATE (item:${ITEM_LABEL}:${identifier(type)})
    SET item = props, item.${UPDATED} = $now`,
);

/** As `CREATE_ITEMS`, for new items that a placeholder stands for: the placeholder becomes the item. */
export const CLAIM_ITEMS = statementPer(
  ITEM_TYPES,
  'CLAIM_ITEMS',
  ['rows', 'now'],
  (type) => `
    UNWIND $rows AS props
    MERGE (item:${PENDING_LABEL} {id: props.id})
    SET item = props, item.${UPDATED} = $now, item:${ITEM_LABEL}:${identifier(type)}
    REMOVE item:${PENDING_LABEL}`,
);

/** `rows`: property maps of the dependents of items made by `CREATE_ITEMS`, made as they are. */
export const CREATE_DEPENDENTS = statementPer(
  DEPENDENT_TYPES,
  'CREATE_DEPENDENTS',
  ['rows'],
  (type) => `
    UNWIND $rows AS props
    CREATE (dependent:${DEPENDENT_LABEL}:${identifier(type)})
    SET dependent = props`,
);

/** As `CREATE_DEPENDENTS`, for new dependents that a placeholder stands for (a link's body). */
export const CLAIM_DEPENDENTS = statementPer(
  DEPENDENT_TYPES,
  'CLAIM_DEPENDENTS',
  ['rows'],
  (type) => `
    UNWIND $rows AS props
    MERGE (dependent:${PENDING_LABEL} {id: props.id})
    SET dependent = props, dependent:${DEPENDENT_LABEL}:${identifier(type)}
    REMOVE dependent:${PENDING_LABEL}`,
);

/** `rows`: `{owner, keep}`, the dependent ids each item keeps; the others go, with their edges. */
export const PRUNE_DEPENDENTS = statement(
  'PRUNE_DEPENDENTS',
  ['rows'],
  `UNWIND $rows AS row
   ${matchDependentsOf('dependent', 'row.owner')}
   WHERE NOT dependent.id IN row.keep
   DETACH DELETE dependent`,
);

/** Drops the relationships inside the bundles of `owners`, which are then written afresh. */
export const UNLINK_DEPENDENTS = statement(
  'UNLINK_DEPENDENTS',
  ['owners'],
  `UNWIND $owners AS owner
   ${matchDependentsOf('dependent', 'owner', `-[link:${DEPENDENT_EDGES}]-()`)}
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
      matchDependent('written', 'props.id', `props.${OWNER}`),
      `, claimed.${OWNER} = props.${OWNER}`,
    )}
    ${matchDependent('dependent', 'props.id', `props.${OWNER}`)}
    SET dependent = props
    SET dependent:${identifier(type)}
    ${removeOtherLabels('dependent', DEPENDENT_TYPES, type)}`,
);

function linkDependents(relation: DependentRelation, parentMatch: string): string {
  const [from, to] = DEPENDENT_RELATIONS[relation] === 'out' ? ['parent', 'child'] : ['child', 'parent'];
  return `
    UNWIND $rows AS row
    ${parentMatch}
    ${matchDependent('child', 'row.child', 'row.owner')}
    CREATE (${from})-[:${identifier(relation)}]->(${to})`;
}

/** `rows`: `{owner, child}`; ties a dependent to the item that owns it, in the relation's direction. */
export const LINK_TO_ITEM = statementPer(DEPENDENT_RELATION_NAMES, 'LINK_TO_ITEM', ['rows'], (relation) =>
  linkDependents(relation, matchItem('parent', 'row.owner')),
);

/** `rows`: `{owner, parent, child}`; ties a dependent to the dependent above it. */
export const LINK_TO_DEPENDENT = statementPer(
  DEPENDENT_RELATION_NAMES,
  'LINK_TO_DEPENDENT',
  ['rows'],
  (relation) => linkDependents(relation, matchDependent('parent', 'row.parent', 'row.owner')),
);

/** `ids`: items whose outgoing edges of one type go, with the placeholders only they needed. */
export const DELETE_EDGES = statementPer(
  ITEM_EDGE_TYPES,
  'DELETE_EDGES',
  ['ids'],
  (type: ItemEdgeType) => `
    UNWIND $ids AS id
    MATCH (source:${ITEM_LABEL} {id: id})-[edge:${identifier(type)}]->(target) ${seekItem('source')}
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
    ${matchItem('source', 'row.from')}
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
   ${matchItem('item', 'id')}
   CALL (id) {
     ${matchDependentsOf('dependent', 'id')}
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

// The statements that read, and the registry of all, for the adapter and the lint test.
export * from './cypher-reads';
export { ALL_STATEMENTS } from './cypher-statements';
export type { CypherStatement } from './cypher-statements';
