import { CHILD_EDGE_TYPES, ITEM_TYPES } from '../../../items/item-types';
import { SearchQuery } from '../../graph-store';
import { SoleTerm, toFtsQuery } from './fts-query';
import { CHILD_EDGES, NAME_WEIGHT, sqlList } from '../sql';
import { RID_OF_ROW, TYPE_MASK, typeCodes } from './text-rows';

/** What a search below an item needs to know of the subtree: its path range and text rows. */
export interface Subtree {
  below: string;
  belowEnd: string;
  firstRow: number;
  lastRow: number;
}

export interface SearchSql {
  /** Selects `id, type` of one page; binds `params` plus `limit`, `offset` (and `last` with text). */
  page: string;
  /** Selects the total; binds `params`. */
  count: string;
  /** Without text: selects every hit, in order; binds `params`. */
  all?: string;
  params: Record<string, string | number>;
}

/**
 * A full-text row's bm25 score: names weigh more than other text. Lower is better. The columns
 * of query fields weigh nothing: they repeat what names and text hold.
 */
export const SCORE = `bm25(item_text, ${NAME_WEIGHT}, 1, 0, 0, 0)`;
/** The item of a full-text row (items are small rows: their dependents live in a table of their own). */
const ITEM_KEY = `item k ON k.rid = item_text.rowid ${RID_OF_ROW}`;
const IN_CHILDREN = `EXISTS (SELECT 1 FROM edge e WHERE e.src = k.id AND e.dst = @scope AND e.type IN (${CHILD_EDGES}))`;

/**
 * The SQL for one search; a search of descendants needs `subtree`. With text, matches are ranked
 * by bm25 (names first), ties by id; `soleTerm` (fts-query.ts) turns words into exact terms where
 * that finds the same. Without text, the hits are read in id order from indexes and merged, so
 * that a page costs its offset plus its size, not a sort of everything.
 */
export function searchSql(query: SearchQuery, subtree?: Subtree, soleTerm?: SoleTerm): SearchSql {
  const params: SearchSql['params'] = {};
  if (query.scope?.depth === 'children') params.scope = query.scope.id;
  if (query.scope?.depth === 'descendants') {
    if (!subtree) throw new Error('A search of descendants needs the subtree of its scope');
    Object.assign(params, subtree);
  }
  const match = toFtsQuery(query.text, soleTerm);
  if (match === undefined) return browseSql(query, params);
  params.match = match;
  return textSql(query, params);
}

/**
 * Type and subtree filters act on full-text row numbers, inside the index. Unscoped, the count
 * reads only the index, and the page reads item keys only for rows that can be on it: those
 * scoring at most as well as the last row of the page (ties included, since ties go by id).
 */
function textSql(query: SearchQuery, params: SearchSql['params']): SearchSql {
  const matches = ['item_text MATCH @match'];
  if (query.types?.length) matches.push(typeFilter(typeCodes(query.types)));
  if (query.scope?.depth === 'descendants') {
    matches.push('item_text.rowid BETWEEN @firstRow AND @lastRow', 'k.path >= @below AND k.path < @belowEnd');
  }
  if (query.scope?.depth === 'children') matches.push(IN_CHILDREN);
  const where = matches.join(' AND ');
  if (query.scope) {
    const from = `FROM item_text JOIN ${ITEM_KEY} WHERE ${where}`;
    return {
      page: `SELECT k.id, k.type ${from} ORDER BY ${SCORE}, k.id LIMIT @limit OFFSET @offset`,
      count: `SELECT count(*) ${from}`,
      params,
    };
  }
  return {
    page: `
      WITH ranked AS MATERIALIZED (SELECT rowid, ${SCORE} AS score FROM item_text WHERE ${where}),
      cutoff AS (SELECT coalesce((SELECT score FROM ranked ORDER BY score LIMIT 1 OFFSET @last), 1e308) AS score)
      SELECT k.id, k.type FROM ranked AS item_text JOIN ${ITEM_KEY}
      WHERE item_text.score <= (SELECT score FROM cutoff)
      ORDER BY item_text.score, k.id LIMIT @limit OFFSET @offset`,
    count: `SELECT count(*) FROM item_text WHERE ${where}`,
    params,
  };
}

/**
 * Keeps the full-text rows of the given type codes. A run of consecutive codes (the portal's
 * types are one) is a comparison, which costs less per row than a list.
 */
export function typeFilter(codes: readonly number[]): string {
  const type = `(item_text.rowid & ${TYPE_MASK})`;
  const sorted = [...new Set(codes)].sort((a, b) => a - b);
  const [first, last] = [sorted[0], sorted[sorted.length - 1]];
  if (sorted.length === 0) return '0';
  if (last - first + 1 !== sorted.length) return `${type} IN (${sorted.join(', ')})`;
  if (first === last) return `${type} = ${first}`;
  return first === 0 ? `${type} <= ${last}` : `${type} BETWEEN ${first} AND ${last}`;
}

function browseSql(query: SearchQuery, params: SearchSql['params']): SearchSql {
  const named = (types: readonly string[]) =>
    types.map((type, index) => {
      params[`t${index}`] = type;
      return `@t${index}`;
    });
  // The unary + keeps the planner from scanning every item of a type instead of the scope's few.
  const typeFilter = (column: string) =>
    query.types?.length ? `AND +${column} IN (${named(query.types).join(', ')})` : '';
  let hits: string;
  if (query.scope?.depth === 'descendants') {
    hits = `SELECT id, type FROM item WHERE path >= @below AND path < @belowEnd ${typeFilter('type')}`;
  } else if (query.scope) {
    // One arm per child edge type, each already in id order: UNION merges them.
    const filter = typeFilter('n.type');
    hits = CHILD_EDGE_TYPES.map(
      (edgeType) => `SELECT e.src AS id, n.type AS type FROM edge e CROSS JOIN item n ON n.id = e.src
        WHERE e.dst = @scope AND e.type = ${sqlList([edgeType])} ${filter}`,
    ).join(' UNION ');
  } else {
    // One arm per type, each in id order from item_by_type: UNION ALL merges them.
    const types = named(query.types?.length ? query.types : ITEM_TYPES);
    hits = types.map((type) => `SELECT id, type FROM item WHERE type = ${type}`).join(' UNION ALL ');
  }
  return {
    page: `${hits} ORDER BY id LIMIT @limit OFFSET @offset`,
    count: `SELECT count(*) FROM (${hits})`,
    all: `${hits} ORDER BY id`,
    params,
  };
}
