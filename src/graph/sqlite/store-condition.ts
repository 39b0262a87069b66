import type { Database } from 'better-sqlite3';

/** Errors that mean the file is damaged, and those that mean it cannot be written. */
const DAMAGED = ['SQLITE_CORRUPT', 'SQLITE_NOTADB'];
const READ_ONLY = ['SQLITE_READONLY'];
/** How often, at most, a whole-file check runs again to see whether damage met at run time is there. */
const RECHECK_MS = 60_000;
/** Problems the quick check lists at most. */
const LISTED_PROBLEMS = 5;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

const isOneOf = (code: string, prefixes: readonly string[]) =>
  prefixes.some((prefix) => code.startsWith(prefix));

/**
 * What is wrong with the SQLite file, as far as the service can tell: damage that SQLite's quick
 * integrity check finds (at open, and again once a statement met a damaged page), and whether the
 * writer connection can begin a write (tried whenever asked and no write is running, and noted
 * when a write fails because the file is read-only).
 */
export class StoreCondition {
  private damage: string | undefined;
  private readOnly: string | undefined;
  /** When the quick check last ran; a damaged page met since makes it run again. */
  private checkedAt = 0;
  private damageMetAt = -Infinity;

  constructor(private readonly writer: Database) {}

  /** SQLite's `quick_check`: reads every page, so it takes a while on a large file. */
  quickCheck(): void {
    try {
      const rows = this.writer.pragma(`quick_check(${LISTED_PROBLEMS})`, { simple: false }) as {
        quick_check: string;
      }[];
      const found = rows.map((row) => row.quick_check).filter((message) => message !== 'ok');
      this.damage =
        found.length === 0 ? undefined : `the store file is damaged (integrity check: ${found.join('; ')})`;
    } catch (error) {
      this.damage = `the store file is damaged (integrity check failed: ${(error as Error).message})`;
    }
    this.checkedAt = Date.now();
  }

  /** Takes note of what an error of a read or a write says about the file. */
  noteError(error: unknown): void {
    const code = codeOf(error);
    if (isOneOf(code, DAMAGED)) {
      this.damage ??= `the store file is damaged: ${(error as Error).message}`;
      this.damageMetAt = Date.now();
    } else if (isOneOf(code, READ_ONLY)) {
      this.readOnly = `the store cannot be written: ${(error as Error).message}`;
    }
  }

  /** What keeps the store from serving now; empty when nothing does. */
  problems(): string[] {
    if (this.damageMetAt > this.checkedAt && Date.now() - this.checkedAt > RECHECK_MS) this.quickCheck();
    this.tryWriting();
    return [this.damage, this.readOnly].filter((problem): problem is string => problem !== undefined);
  }

  /**
   * Begins and abandons a write transaction, unless one is running (which then began, so the file
   * took a write). Another process's write lock leaves what was known as it was.
   */
  private tryWriting(): void {
    if (this.writer.inTransaction) return;
    try {
      this.writer.prepare('BEGIN IMMEDIATE').run();
      this.writer.prepare('ROLLBACK').run();
      this.readOnly = undefined;
    } catch (error) {
      if (codeOf(error).startsWith('SQLITE_BUSY')) return;
      this.readOnly = `the store cannot be written: ${(error as Error).message}`;
    }
  }
}
