import type { Statement } from 'better-sqlite3';
import { parameterRows } from './sql';

/** Rows per INSERT statement: fewer statement runs, while a statement's SQL stays short. */
const ROWS_PER_STATEMENT = 64;

const sqlByRows = new Map<string, string>();

/**
 * The SQL `build` gives for `rows` rows of parameters, built once for each `head` (the text the
 * statement starts with, which names it) and row count.
 */
export function sqlForRows(head: string, rows: number, build: () => string): string {
  const key = `${rows}\0${head}`;
  let sql = sqlByRows.get(key);
  if (sql === undefined) {
    sql = build();
    sqlByRows.set(key, sql);
  }
  return sql;
}

/** `head` (`INSERT OR IGNORE INTO t (a, b)`) followed by `rows` placeholders for rows of `width` values. */
function insertSql(head: string, width: number, rows: number): string {
  return sqlForRows(head, rows, () => `${head} VALUES ${parameterRows(rows, width)}`);
}

/**
 * Inserts rows given as one flat list of values, `width` to a row, several rows per statement;
 * returns how many went in. `statement` prepares (and caches) a statement for each SQL text.
 *
 * `head` should be an INSERT OR IGNORE: a statement of several rows that could fail half way
 * opens a statement savepoint, and FTS5 writes the rows it holds in memory out as an index segment
 * at every savepoint, so that each batch of an import would leave a small segment to merge again
 * and again. One that ignores conflicts cannot fail half way; callers count what went in.
 */
export function insertRows(
  statement: (sql: string) => Statement,
  head: string,
  width: number,
  values: readonly unknown[],
): number {
  return runInRows(statement, (rows) => insertSql(head, width, rows), width, values);
}

/**
 * Runs the statement `sqlFor(rows)` gives for `rows` rows of parameters over a flat list of
 * values, `width` to a row, several rows per statement; returns the rows it changed.
 */
export function runInRows(
  statement: (sql: string) => Statement,
  sqlFor: (rows: number) => string,
  width: number,
  values: readonly unknown[],
): number {
  const rows = values.length / width;
  let changed = 0;
  for (let first = 0; first < rows; first += ROWS_PER_STATEMENT) {
    const count = Math.min(ROWS_PER_STATEMENT, rows - first);
    const slice = values.slice(first * width, (first + count) * width);
    // Spread: better-sqlite3 reads the elements of an array argument one slow lookup at a time.
    changed += statement(sqlFor(count)).run(...slice).changes;
  }
  return changed;
}
