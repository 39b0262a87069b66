import type { Database } from 'better-sqlite3';
import { reindexText } from './reindex-text';

/** SQL to run, or a step that needs code (rebuilding the full-text index from the items). */
type Migration = string | ((db: Database) => void);

/**
 * The schema, one migration per version: `MIGRATIONS[n]` takes a database from version n to n + 1.
 * The version reached is kept in `PRAGMA user_version`; a new version is a new entry, never an edit.
 */
export const MIGRATIONS: readonly Migration[] = [
  `
  -- Items and their dependent nodes. Items have no owner, a hash and an update time; dependents
  -- name the item they live and die with. rid is the full-text row of an item. path lists an item's
  -- ancestors root first, each followed by a unit separator (see item-paths.ts), so that everything
  -- below an item is one index range.
  CREATE TABLE node (
    rid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    owner TEXT,
    props TEXT NOT NULL,
    hash TEXT,
    updated TEXT,
    path TEXT
  );
  CREATE INDEX node_by_owner ON node (owner) WHERE owner IS NOT NULL;
  CREATE INDEX item_by_type ON node (type, id) WHERE owner IS NULL;
  CREATE INDEX item_by_id ON node (id) WHERE owner IS NULL;
  CREATE INDEX item_by_path ON node (path) WHERE owner IS NULL;
  CREATE INDEX access_point_by_name ON node (json_extract(props, '$.name')) WHERE type = 'AccessPoint';

  -- Typed relationships: dependent relations and item-level edges alike.
  CREATE TABLE edge (
    src TEXT NOT NULL,
    type TEXT NOT NULL,
    dst TEXT NOT NULL,
    PRIMARY KEY (src, type, dst)
  ) WITHOUT ROWID;
  CREATE INDEX edge_by_dst ON edge (dst, type, src);

  -- Full text of items (rowid = node.rid); only ids are read back, so it keeps no copy of the text.
  CREATE VIRTUAL TABLE item_text USING fts5 (
    names, text,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  );

  -- Records that are not archival items: tokens, import logs.
  CREATE TABLE record (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    props TEXT NOT NULL
  );
  CREATE INDEX record_by_type ON record (type, id);

  -- Counts committed write transactions: a read knows from it which snapshot it sees.
  CREATE TABLE store_version (version INTEGER NOT NULL);
  INSERT INTO store_version (version) VALUES (0);
  `,
  (db) => {
    db.exec(`
      -- What a search needs of an item, found by its full-text row (text-rows.ts) without its props.
      DROP INDEX item_by_id;
      CREATE INDEX item_key ON node (rid, id, path, type) WHERE owner IS NULL;

      -- Full-text rows are numbered by text-rows.ts now: the index is rebuilt from the items.
      DROP TABLE item_text;
      CREATE VIRTUAL TABLE item_text USING fts5 (
        names, text,
        content = '', contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2'
      );
    `);
    reindexText(db);
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to `SCHEMA_VERSION`. Call inside a write transaction, so that two processes
 * opening a new file do not both create it.
 */
export function migrate(db: Database): void {
  const from = schemaVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new Error(
      `The database has schema version ${from}; this build knows versions up to ${SCHEMA_VERSION}`,
    );
  }
  for (let version = from; version < SCHEMA_VERSION; version++) {
    const migration = MIGRATIONS[version];
    if (typeof migration === 'string') db.exec(migration);
    else migration(db);
  }
  if (from !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
}
