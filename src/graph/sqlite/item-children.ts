import type { ChildPage, SubtreeEntry } from '../graph-store';
import { CHILD_EDGE_TYPES } from '../../items/item-types';
import type { SearchReads } from './search/search-reads';
import { itemExists } from './sql';

/**
 * A page of one item's children, in id order: one branch per child edge type, each the next rows
 * of the `(dst, type, src)` edge index after the cursor, so that a page of a wide item reads its
 * own rows and never sorts all its children. The union keeps an item with two edges to it once.
 */
const SELECT_CHILDREN = `
  SELECT id, parentId, type, localId FROM (
    ${CHILD_EDGE_TYPES.map(
      (edgeType) => `SELECT * FROM (
        SELECT e.src AS id, e.dst AS parentId, n.type AS type,
          coalesce(json_extract(n.props, '$.identifier'), '') AS localId
        FROM edge e JOIN item n ON n.id = e.src
        WHERE e.dst = @parent AND e.type = '${edgeType}' AND e.src > @after AND ${itemExists('@parent')}
        ORDER BY e.src LIMIT @limit)`,
    ).join(' UNION ')})
  ORDER BY id LIMIT @limit`;

/** `children` on SQLite: a statement per parent, each cheap on the connection the read holds. */
export function listChildren(
  reads: Pick<SearchReads, 'statement'>,
  parentIds: readonly string[],
  page: ChildPage,
): Map<string, SubtreeEntry[]> {
  const statement = reads.statement(SELECT_CHILDREN);
  return new Map(
    parentIds.map((parent) => [
      parent,
      statement.all({ parent, after: page.after ?? '', limit: page.limit }) as SubtreeEntry[],
    ]),
  );
}
