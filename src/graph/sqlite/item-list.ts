import type { ItemListQuery, ListedItem } from '../graph-store';
import type { SearchReads } from './search/search-reads';
import { itemExists } from './sql';

/**
 * `listItems` on SQLite: one statement, its conditions those the query names, so that each shape
 * is a statement of its own which the planner reads the `(type, id)` index for: the page is the
 * next rows of that index after the cursor that pass the conditions.
 */
export function listItems(
  reads: Pick<SearchReads, 'statement' | 'pathRangeBelow'>,
  query: ItemListQuery,
): ListedItem[] {
  const conditions = ['type = @type'];
  const parameters: Record<string, unknown> = { type: query.type, limit: query.limit };
  if (query.after !== undefined) {
    conditions.push('id > @after');
    parameters.after = query.after;
  }
  if (query.updated?.from !== undefined) {
    conditions.push('updated >= @from');
    parameters.from = query.updated.from;
  }
  if (query.updated?.until !== undefined) {
    conditions.push('updated <= @until');
    parameters.until = query.updated.until;
  }
  if (query.below !== undefined) {
    const range = reads.pathRangeBelow(query.below);
    conditions.push('path >= @pathFrom AND path < @pathTo');
    parameters.pathFrom = range.from;
    parameters.pathTo = range.to;
  }
  if (query.withEdge !== undefined) {
    conditions.push(
      `EXISTS (SELECT 1 FROM edge WHERE src = item.id AND type = @edge AND ${itemExists('edge.dst')})`,
    );
    parameters.edge = query.withEdge;
  }
  const sql = `SELECT id, updated FROM item INDEXED BY item_by_type
    WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT @limit`;
  return reads.statement(sql).all(parameters) as ListedItem[];
}
