import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { TokenRow, TokenStore } from '../token-store';
import { StatementCache } from './statement-cache';

/**
 * How long a token's statement waits for another process's lock on the token file. Only token
 * writes take that lock, each one row in a transaction of its own, so the wait is short and
 * bounded; SQLite's own wait blocks the thread meanwhile, which for so short a wait is cheaper
 * than giving the event loop back.
 */
const BUSY_TIMEOUT_MS = 1000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS token (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    user TEXT,
    name TEXT,
    created TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
  );
`;
const SCHEMA_VERSION = 1;

const COLUMNS = 'id, hash, role, user, name, created, revoked';

interface Row {
  id: string;
  hash: string;
  role: string;
  user: string | null;
  name: string | null;
  created: string;
  revoked: number;
}

function tokenOf(row: Row): TokenRow {
  const token: TokenRow = {
    id: row.id,
    hash: row.hash,
    role: row.role,
    created: row.created,
    revoked: row.revoked !== 0,
  };
  if (row.user !== null) token.user = row.user;
  if (row.name !== null) token.name = row.name;
  return token;
}

/** `data/archive.db` → `data/archive.tokens.db`: beside the store, one token file per store. */
export function tokenFileOf(storeFile: string): string {
  const parsed = path.parse(path.resolve(storeFile));
  return path.join(parsed.dir, `${parsed.name}.tokens.db`);
}

/**
 * The embedded store's tokens, in a SQLite file of their own beside the store's: the store has one
 * writer, which an import holds for as long as it runs, and a revocation must not wait for it. No
 * import ever writes this file, so a token's write waits at most for another token's.
 */
export class SqliteTokenStore extends TokenStore {
  private constructor(private readonly statements: StatementCache) {
    super();
  }

  /**
   * Opens (creating) the token file of `storeFile`. A new file takes over the tokens that `legacy`
   * gives (those an older version kept in the store itself), once.
   */
  static async open(storeFile: string, legacy: () => Promise<TokenRow[]>): Promise<SqliteTokenStore> {
    const file = tokenFileOf(storeFile);
    mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      const version = () => db.pragma('user_version', { simple: true }) as number;
      if (version() < SCHEMA_VERSION) {
        const rows = await legacy();
        db.transaction(() => {
          if (version() >= SCHEMA_VERSION) return;
          db.exec(SCHEMA);
          const insert = db.prepare(
            `INSERT OR IGNORE INTO token (${COLUMNS}) VALUES (@id, @hash, @role, @user, @name, @created, @revoked)`,
          );
          for (const row of rows) {
            insert.run({ user: null, name: null, ...row, revoked: row.revoked ? 1 : 0 });
          }
          db.pragma(`user_version = ${SCHEMA_VERSION}`);
        }).immediate();
      }
      return new SqliteTokenStore(new StatementCache(db));
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async add(row: TokenRow): Promise<void> {
    this.statements
      .get(`INSERT INTO token (${COLUMNS}) VALUES (@id, @hash, @role, @user, @name, @created, @revoked)`)
      .run({ user: null, name: null, ...row, revoked: row.revoked ? 1 : 0 });
  }

  async byHash(hash: string): Promise<TokenRow | undefined> {
    const row = this.statements.get(`SELECT ${COLUMNS} FROM token WHERE hash = ?`).get(hash) as
      Row | undefined;
    return row === undefined ? undefined : tokenOf(row);
  }

  async list(): Promise<TokenRow[]> {
    const rows = this.statements.get(`SELECT ${COLUMNS} FROM token ORDER BY created, id`).all() as Row[];
    return rows.map(tokenOf);
  }

  async revoke(id: string): Promise<boolean> {
    return this.statements.get('UPDATE token SET revoked = 1 WHERE id = ?').run(id).changes > 0;
  }

  async inactiveAmong(ids: readonly string[]): Promise<Set<string>> {
    const active = new Set(
      this.statements
        .get('SELECT id FROM token WHERE revoked = 0 AND id IN (SELECT value FROM json_each(?))', 'pluck')
        .all(JSON.stringify(ids)) as string[],
    );
    return new Set(ids.filter((id) => !active.has(id)));
  }

  async close(): Promise<void> {
    this.statements.db.close();
  }
}
