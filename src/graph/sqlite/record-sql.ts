import { Scalar } from '../../items/bundle';
import { RecordQuery } from '../graph-store';

export interface RecordSql {
  page: string;
  count: string;
  params: unknown[];
  pageParams: unknown[];
}

/** Property names become JSON paths; anything but a plain name is refused rather than quoted. */
const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function pathOf(property: string): string {
  if (!PROPERTY_NAME.test(property)) throw new Error(`Not a record property name: "${property}"`);
  return `$.${property}`;
}

/** SQLite has no booleans: JSON true and false read back as 1 and 0; lists compare as JSON text. */
function sqlValue(value: Scalar | Scalar[]): string | number {
  if (Array.isArray(value)) return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** The SQL for `findRecords`: filters on JSON properties, ordered by a property then id. */
export function recordQuerySql(query: RecordQuery): RecordSql {
  const conditions = ['type = ?'];
  const params: unknown[] = [query.type];
  for (const [property, value] of Object.entries(query.equals ?? {})) {
    conditions.push('json_extract(props, ?) = ?');
    params.push(pathOf(property), sqlValue(value));
  }
  const range = query.range;
  if (range?.from !== undefined) {
    conditions.push('json_extract(props, ?) >= ?');
    params.push(pathOf(range.property), range.from);
  }
  if (range?.to !== undefined) {
    conditions.push('json_extract(props, ?) <= ?');
    params.push(pathOf(range.property), range.to);
  }
  if (query.after !== undefined) {
    conditions.push('id > ?');
    params.push(query.after);
  }
  const where = `FROM record WHERE ${conditions.join(' AND ')}`;
  const order = query.orderBy
    ? `json_extract(props, ?) ${query.orderBy.descending ? 'DESC' : 'ASC'}, id`
    : 'id';
  const orderParams = query.orderBy ? [pathOf(query.orderBy.property)] : [];
  return {
    page: `SELECT id, type, props ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
    count: `SELECT count(*) ${where}`,
    params,
    pageParams: [...params, ...orderParams, query.limit ?? -1, query.offset ?? 0],
  };
}
