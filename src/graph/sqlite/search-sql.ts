import { CHILD_EDGE_TYPES } from '../../items/item-types';
import { SearchQuery } from '../graph-store';
import { toFtsQuery } from './fts-query';
import { CHILD_EDGES, NAME_WEIGHT, sqlList } from './sql';

export interface SearchSql {
  /** Selects `id, type` of one page; binds `params` plus `limit` and `offset`. */
  page: string;
  /** Selects the total. */
  count: string;
  params: Record<string, string>;
}

/**
 * The SQL for one search; a search of descendants needs `below`, the range of paths below the scope.
 * With text, full-text matches are filtered by type and scope and ranked
 * by bm25 (names first), ties by id. Without text, the candidate set is read in id order from an
 * index and merged, so that a page costs its offset plus its size, not a sort of everything.
 */
export function searchSql(query: SearchQuery, below?: { from: string; to: string }): SearchSql {
  const params: Record<string, string> = {};
  if (below) Object.assign(params, { below: below.from, belowEnd: below.to });
  const types = (query.types ?? []).map((type, index) => {
    params[`t${index}`] = type;
    return `@t${index}`;
  });
  if (query.scope?.depth === 'children') params.scope = query.scope.id;
  const match = toFtsQuery(query.text);
  if (match !== undefined) params.match = match;
  return match === undefined ? browseSql(query, types, params) : textSql(query, types, params);
}

function textSql(query: SearchQuery, types: string[], params: SearchSql['params']): SearchSql {
  const conditions = ['item_text MATCH @match', 'n.owner IS NULL'];
  if (types.length) conditions.push(`n.type IN (${types.join(', ')})`);
  if (query.scope?.depth === 'children') {
    conditions.push(
      `EXISTS (SELECT 1 FROM edge e WHERE e.src = n.id AND e.dst = @scope AND e.type IN (${CHILD_EDGES}))`,
    );
  }
  if (query.scope?.depth === 'descendants') conditions.push('n.path >= @below AND n.path < @belowEnd');
  const from = `SELECT %s FROM item_text JOIN node n ON n.rid = item_text.rowid WHERE ${conditions.join(' AND ')}`;
  return {
    page: `${from.replace('%s', 'n.id, n.type')} ORDER BY bm25(item_text, ${NAME_WEIGHT}, 1), n.id LIMIT @limit OFFSET @offset`,
    count: from.replace('%s', 'count(*)'),
    params,
  };
}

function browseSql(query: SearchQuery, types: string[], params: SearchSql['params']): SearchSql {
  let candidates: string;
  if (query.scope?.depth === 'descendants') {
    const typeFilter = types.length ? `AND n.type IN (${types.join(', ')})` : '';
    candidates = `SELECT id, type FROM node n WHERE owner IS NULL AND path >= @below AND path < @belowEnd ${typeFilter}`;
  } else if (query.scope) {
    // One arm per child edge type, each already in id order: UNION merges them.
    const typeFilter = types.length ? `AND n.type IN (${types.join(', ')})` : '';
    candidates = CHILD_EDGE_TYPES.map(
      (edgeType) => `SELECT e.src AS id, n.type AS type FROM edge e JOIN node n ON n.id = e.src
          WHERE e.dst = @scope AND e.type = ${sqlList([edgeType])} AND n.owner IS NULL ${typeFilter}`,
    ).join(' UNION ');
  } else if (types.length) {
    candidates = types
      .map((type) => `SELECT id, type FROM node WHERE owner IS NULL AND type = ${type}`)
      .join(' UNION ALL ');
  } else {
    candidates = 'SELECT id, type FROM node WHERE owner IS NULL';
  }
  return {
    page: `${candidates} ORDER BY id LIMIT @limit OFFSET @offset`,
    count: `SELECT count(*) FROM (${candidates})`,
    params,
  };
}
