import { ITEM_LABEL, TYPE, UPDATED } from './graph-model';
import { CHILD_EDGES, matchItem, statement } from './cypher-statements';

/**
 * `listItems` (see `GraphReader`): the next items after `$after` (empty for the first page) in the
 * order of the id index, which the hint makes the planner walk, so that a page reads its own rows
 * and the ones the conditions pass over, never the whole type sorted. A null condition is not
 * applied; `$edge` is a relationship type of the item model.
 */
export const LIST_ITEMS = statement(
  'LIST_ITEMS',
  ['type', 'after', 'from', 'until', 'edge', 'below', 'limit'],
  `MATCH (item:${ITEM_LABEL}) USING INDEX item:${ITEM_LABEL}(id)
   WHERE item.id > $after AND item.${TYPE} = $type
     AND ($from IS NULL OR item.${UPDATED} >= $from)
     AND ($until IS NULL OR item.${UPDATED} <= $until)
     AND ($edge IS NULL OR EXISTS { MATCH (item)-[edge]->(:${ITEM_LABEL}) WHERE type(edge) = $edge })
     AND ($below IS NULL OR EXISTS { MATCH (item)-[:${CHILD_EDGES}*]->(:${ITEM_LABEL} {id: $below}) })
   RETURN item.id AS id, item.${UPDATED} AS updated
   ORDER BY item.id
   LIMIT $limit`,
);

/**
 * `children` (see `GraphReader`): for each parent, the next children after `$after` (empty for the
 * first page) in id order, at most `$limit` of each, in one round trip for a level of a subtree.
 */
export const CHILDREN = statement(
  'CHILDREN',
  ['parentIds', 'after', 'limit'],
  `UNWIND $parentIds AS parentId
   ${matchItem('parent', 'parentId')}
   CALL (parent) {
     MATCH (parent)<-[:${CHILD_EDGES}]-(child:${ITEM_LABEL})
     WHERE child.id > $after
     WITH DISTINCT child
     RETURN child
     ORDER BY child.id
     LIMIT $limit
   }
   RETURN parentId, child.id AS id, child.${TYPE} AS type, child.identifier AS localId
   ORDER BY parentId, id`,
);
