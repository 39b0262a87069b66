import { ITEM_LABEL, RECORD_LABEL, TYPE } from './graph-model';
import {
  CHILD_EDGES,
  DEPENDENT_EDGES,
  ITEM_EDGES,
  indexSeek,
  isWritten,
  matchDependentsOf,
  matchItem,
} from './cypher-statements';

/**
 * What a page statement (`cypher-pages.ts`) reads of the items it shows: their bundles, children
 * and holders, for the page's hits and for the items beside it, and the record of a removed id.
 */

/** The holder a page shows for a unit: its first `heldBy` target, or the nearest repository above it. */
export const PAGE_HOLDER = (node: string) => `CASE WHEN ${node}.${TYPE} = 'DocumentaryUnit' THEN coalesce(
    COLLECT { MATCH (${node})-[:heldBy]->(held:${ITEM_LABEL}) RETURN held.id AS id ORDER BY id LIMIT 1 }[0],
    COLLECT { MATCH path = (${node})-[:childOf]->(:${ITEM_LABEL})-[:${CHILD_EDGES}*0..]->(above:Repository)
      RETURN above.id AS id ORDER BY length(path) LIMIT 1 }[0]) END`;

/** What `PageItem` is made of for `node`: what `GET_ITEMS` reads, its children counted, its holder. */
export const itemRow = (node: string) => `{
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

/** The items beside the page: those of `$itemIds`, their context, the holders a facet counts. */
export const BESIDE = `CALL (holders) {
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

/** The record of `$recordId` (a removed item's tombstone), or null. */
export const RECORD = `COLLECT {
    MATCH (record:${RECORD_LABEL} {id: $recordId}) ${indexSeek('record', RECORD_LABEL, 'id')} RETURN record
  }[0]`;
