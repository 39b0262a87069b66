import { ImportJob } from './import-job';
import { ImportJobRecords } from './import-job-records';

/**
 * The writes of the serving thread that concern imports (job records, the log of an import that
 * never ran), made only while no import of this process writes. An import holds the store's one
 * writer for the whole of its transaction, in the import worker's thread: a write of the serving
 * thread meanwhile would wait for it, and on SQLite wait by blocking the event loop (better-sqlite3
 * is synchronous), holding up every request. So jobs noted meanwhile (one queued, one cancelled
 * while it waited) are written once that import ends, before the next one begins.
 */
export class JobRecordWrites {
  /** Jobs to store, by id; their documents are taken when written, so the latest is stored. */
  private readonly pending = new Map<string, ImportJob>();
  /** The writes, one after another. */
  private chain: Promise<unknown> = Promise.resolve();
  /** Set while an import of this process writes; resolves when it ends. */
  private importing?: { ended: Promise<void>; end: () => void };

  constructor(private readonly records: ImportJobRecords) {}

  /** Stores `job` as it is by then, once no import writes; resolves when it is stored. */
  record(job: ImportJob): Promise<void> {
    this.pending.set(job.id, job);
    return this.step(() => this.writePending());
  }

  /** Runs `write` once no import writes, after the writes asked for before it. */
  betweenImports<T>(write: () => Promise<T>): Promise<T> {
    return this.step(write);
  }

  /**
   * Stores `job` (now running) with every job noted meanwhile, then runs `work`, its import: no
   * write of these waits on it meanwhile.
   */
  async runImport<T>(job: ImportJob, work: () => Promise<T>): Promise<T> {
    this.pending.set(job.id, job);
    await this.step(async () => {
      await this.writePending();
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      this.importing = { ended, end };
    });
    try {
      return await work();
    } finally {
      this.importing?.end();
      this.importing = undefined;
    }
  }

  private step<T>(write: () => Promise<T>): Promise<T> {
    const next = this.chain.then(async () => {
      while (this.importing !== undefined) await this.importing.ended;
      return write();
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async writePending(): Promise<void> {
    const jobs = [...this.pending.values()];
    this.pending.clear();
    if (jobs.length === 0) return;
    await this.records.put(
      jobs.map((job) => ({ document: job.document(), pid: process.pid, tokenId: job.spec.tokenId })),
    );
  }
}
