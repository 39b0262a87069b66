import type { Database } from 'better-sqlite3';
import { DEPENDENT_RELATIONS, DependentRelation } from '../../items/item-types';
import { DEPENDENT_COLUMNS, POSITION_BITS } from './dependent-rows';
import { placeEveryItem } from './item-placement';
import { reindexText } from './reindex-text';
import { StatementCache } from './statement-cache';
import { IN_RELATIONS, OUT_RELATIONS, sqlList } from './sql';

/**
 * One step of the schema. A step that leaves the full-text index empty says so: the index is
 * refilled from the items once the schema is current, since the refill reads items as this build
 * stores them.
 */
interface Migration {
  sql: string;
  emptiesTextIndex?: boolean;
  /** Leaves every item without a path: they are worked out again once the schema is current. */
  emptiesPaths?: boolean;
}

/**
 * The schema, one migration per version: `MIGRATIONS[n]` takes a database from version n to n + 1.
 * The version reached is kept in `PRAGMA user_version`; a new version is a new entry, never an edit.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    sql: `
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
  },
  {
    sql: `
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
    `,
    emptiesTextIndex: true,
  },
  {
    sql: `
      -- Items keep their rids, and so their full-text rows. A NULL path is one that a write
      -- transaction has yet to work out (item-paths.ts); none is left when it commits.
      CREATE TABLE item (
        rid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        props TEXT NOT NULL,
        hash TEXT,
        updated TEXT,
        path TEXT
      );
      INSERT INTO item (rid, id, type, props, hash, updated, path)
        SELECT rid, id, type, props, hash, updated, coalesce(path, '') FROM node WHERE owner IS NULL;

      -- Dependents, numbered by owner and tied to the node they hang from by columns, not edges
      -- (dependent-rows.ts): their positions follow the order they were written in, parents first.
      CREATE TABLE dependent (
        rid INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        parent INTEGER,
        relation TEXT NOT NULL,
        props TEXT NOT NULL,
        name TEXT
      );
      CREATE TEMP TABLE placed AS
        SELECT d.id, d.type, d.props, o.rid AS owner,
          row_number() OVER (PARTITION BY o.rid ORDER BY d.rid) - 1 AS position
        FROM node d JOIN node o ON o.id = d.owner AND o.owner IS NULL;
      CREATE INDEX temp.placed_by_id ON placed (id);
      INSERT INTO dependent (${DEPENDENT_COLUMNS})
        SELECT (p.owner << ${POSITION_BITS}) + p.position, p.id, p.type, above.position,
          coalesce(down.type, up.type), p.props,
          CASE WHEN p.type = 'AccessPoint' THEN json_extract(p.props, '$.name') END
        FROM placed p
        LEFT JOIN edge down ON down.dst = p.id AND down.type IN (${OUT_RELATIONS})
        LEFT JOIN edge up ON up.src = p.id AND up.type IN (${IN_RELATIONS})
        LEFT JOIN placed above ON above.id = coalesce(down.src, up.dst) AND above.owner = p.owner
        WHERE coalesce(down.type, up.type) IS NOT NULL;
      DROP TABLE temp.placed;
      DELETE FROM edge WHERE type IN (${sqlList(Object.keys(DEPENDENT_RELATIONS) as DependentRelation[])});
      DROP TABLE node;

      CREATE INDEX item_by_type ON item (type, id);
      CREATE INDEX item_by_path ON item (path) WHERE path IS NOT NULL;
      -- A column, not an expression: an index on json_extract could fail half way through a
      -- statement, which makes SQLite open a savepoint for it (see row-inserts.ts).
      CREATE INDEX access_point_by_name ON dependent (name) WHERE name IS NOT NULL;
      -- Edges may point at access points (link bodies): reads look them up to see that they exist.
      CREATE INDEX access_point_by_id ON dependent (id) WHERE type = 'AccessPoint';

      -- FTS5 writes the rows it holds in memory out as an index segment once they pass this size
      -- (or at a savepoint, which the writer avoids: row-inserts.ts): larger segments, fewer merges.
      INSERT INTO item_text (item_text, rank) VALUES ('hashsize', ${16 * 1024 * 1024});
    `,
  },
  {
    sql: `
      -- The fields a query may name get columns of their own (search-text.ts), which the index is
      -- rebuilt with: titles, identifiers and scope and content, each also in names or text.
      DROP TABLE item_text;
      CREATE VIRTUAL TABLE item_text USING fts5 (
        names, text, titles, identifiers, scope,
        content = '', contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO item_text (item_text, rank) VALUES ('hashsize', ${16 * 1024 * 1024});

      -- The portal lists the most recently updated first, ties by id.
      CREATE INDEX item_by_updated ON item (updated DESC, id);
    `,
    emptiesTextIndex: true,
  },
  {
    // Paths list their ancestors' keys rather than their ids (item-paths.ts).
    sql: 'UPDATE item SET path = NULL',
    emptiesPaths: true,
  },
  {
    // The last version that changed items: what is kept of items and searches outlives a commit
    // that wrote records only (a job's, an import log), which is the last of every import.
    sql: `
      ALTER TABLE store_version ADD COLUMN items_version INTEGER NOT NULL DEFAULT 0;
      UPDATE store_version SET items_version = version;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to `SCHEMA_VERSION`. The connection must have `path_key` (item-paths.ts).
 * Call inside a write transaction, so that two processes
 * opening a new file do not both create it.
 */
export function migrate(db: Database): void {
  const from = schemaVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new Error(
      `The database has schema version ${from}; this build knows versions up to ${SCHEMA_VERSION}`,
    );
  }
  const steps = MIGRATIONS.slice(from);
  for (const { sql } of steps) db.exec(sql);
  if (steps.some((step) => step.emptiesTextIndex)) reindexText(db);
  if (steps.some((step) => step.emptiesPaths)) placeEveryItem(new StatementCache(db));
  if (from !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
}
