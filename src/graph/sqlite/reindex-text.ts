import type { Database } from 'better-sqlite3';
import { searchableText } from '../../items/search-text';
import { SqliteGraphReader } from './sqlite-graph-reader';
import { StatementCache } from './statement-cache';
import { textRow } from './search/text-rows';

const BATCH = 1000;
const NEXT_ITEMS = 'SELECT rid, id, type FROM item WHERE rid > ? ORDER BY rid LIMIT ?';
const INSERT_TEXT =
  'INSERT INTO item_text (rowid, names, text, titles, identifiers, scope) VALUES (?, ?, ?, ?, ?, ?)';

/** Fills the (empty) full-text index from the stored items, a batch at a time. */
export function reindexText(db: Database): void {
  const connection = new StatementCache(db);
  const reader = new SqliteGraphReader(connection);
  const insert = connection.get(INSERT_TEXT);
  for (let after = 0; ;) {
    const items = connection.get(NEXT_ITEMS).all(after, BATCH) as { rid: number; id: string; type: string }[];
    if (items.length === 0) return;
    const stored = reader.storedItems(items.map((item) => item.id));
    for (const { rid, id, type } of items) {
      const { names, text, titles, identifiers, scopeAndContent } = searchableText(stored.get(id)!.bundle);
      insert.run(textRow(rid, type), names, text, titles, identifiers, scopeAndContent);
    }
    after = items[items.length - 1].rid;
  }
}
