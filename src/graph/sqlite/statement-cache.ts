import type { Database, Statement } from 'better-sqlite3';

/** How a statement returns rows: objects, the first column's value, or arrays. */
export type RowMode = 'object' | 'pluck' | 'raw';

/**
 * Prepared statements of one connection, prepared once per SQL text and row mode. A mode is a
 * setting of the prepared statement, so each mode gets a statement of its own rather than
 * switching a shared one back and forth.
 */
export class StatementCache {
  /** One map per mode, keyed by the SQL text itself: the hot path builds no key strings. */
  private readonly statements: Record<RowMode, Map<string, Statement>> = {
    object: new Map(),
    pluck: new Map(),
    raw: new Map(),
  };

  constructor(readonly db: Database) {}

  get(sql: string, mode: RowMode = 'object'): Statement {
    let statement = this.statements[mode].get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (mode === 'pluck') statement.pluck();
      if (mode === 'raw') statement.raw();
      this.statements[mode].set(sql, statement);
    }
    return statement;
  }
}
