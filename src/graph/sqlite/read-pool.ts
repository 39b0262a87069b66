import { StatementCache } from './statement-cache';

/**
 * A few read-only connections, opened on demand. A read transaction holds one for its whole
 * duration (its snapshot lives on that connection); when all are taken, the next read waits for one.
 */
export class ReadPool {
  private readonly idle: StatementCache[] = [];
  private readonly waiting: ((connection: StatementCache) => void)[] = [];
  private opened = 0;
  private drained?: () => void;

  constructor(
    private readonly openConnection: () => StatementCache,
    private readonly size: number,
  ) {}

  async use<T>(work: (connection: StatementCache) => Promise<T>): Promise<T> {
    const connection = await this.acquire();
    try {
      return await work(connection);
    } finally {
      this.release(connection);
    }
  }

  /** Waits for the connections in use to come back, then closes them all. */
  async close(): Promise<void> {
    if (this.idle.length < this.opened) await new Promise<void>((resolve) => (this.drained = resolve));
    for (const connection of this.idle.splice(0)) connection.db.close();
    this.opened = 0;
  }

  private acquire(): Promise<StatementCache> {
    const connection = this.idle.pop();
    if (connection) return Promise.resolve(connection);
    if (this.opened < this.size) {
      const opened = this.openConnection();
      this.opened++;
      return Promise.resolve(opened);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(connection: StatementCache): void {
    const next = this.waiting.shift();
    if (next) return next(connection);
    this.idle.push(connection);
    if (this.drained && this.idle.length === this.opened) this.drained();
  }
}
