import type { Database } from 'better-sqlite3';

/**
 * The terms of the full-text index, one row per occurrence, in term order: a table of the
 * connection's own (temp) schema, so read-only connections can have it too. Read lazily, it
 * answers "the first term from here" in a few page reads, where the `row` kind would count each
 * term's documents first.
 */
const TERMS_TABLE = 'temp.item_text_terms';

/** The terms with the number of full-text rows each occurs in: one row per term. */
const TERM_COUNTS_TABLE = 'temp.item_text_term_counts';

export function openTermIndex(db: Database): void {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${TERMS_TABLE} USING fts5vocab(main, item_text, instance)`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${TERM_COUNTS_TABLE} USING fts5vocab(main, item_text, row)`);
}

/** Every indexed term with its number of rows, read along the whole index (`readAhead`). */
export const SELECT_TERM_COUNTS = `SELECT term, doc FROM ${TERM_COUNTS_TABLE}`;

/** The first indexed term in [?, ?). */
export const SELECT_TERM_FROM = `SELECT term FROM ${TERMS_TABLE} WHERE term >= ? AND term < ? LIMIT 1`;
