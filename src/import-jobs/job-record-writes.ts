import { ImportJob } from './import-job';
import { ImportJobRecords } from './import-job-records';
import { rejectOnAbort } from './job-cancelled';

/** The imports of other processes (HTTP workers): whether one runs, and when none does. */
export interface OtherImports {
  anyRunning(): boolean;
  /** Undefined when none runs. */
  whenNoneRunning(): Promise<void> | undefined;
}

const NO_OTHER_IMPORTS: OtherImports = { anyRunning: () => false, whenNoneRunning: () => undefined };

/**
 * The writes of the serving thread that concern imports (job records, the log of an import that
 * never ran), made only while no import writes. An import holds the store's one writer for the
 * whole of its transaction, in an import worker's thread: a write of the serving thread meanwhile
 * would wait for it, and the next import could take the writer before that write. So jobs noted
 * meanwhile (one queued, one cancelled while it waited) are written once that import ends, before
 * the next one begins. Imports of other HTTP workers (`others`) are waited for likewise,
 * and so the next import of this one too: it stays queued until they end, rather than running only
 * to wait for the writer.
 */
export class JobRecordWrites {
  /** Jobs to store, by id; their documents are taken when written, so the latest is stored. */
  private readonly pending = new Map<string, ImportJob>();
  /** The writes, one after another. */
  private chain: Promise<unknown> = Promise.resolve();
  /** Set while an import of this process writes; resolves when it ends. */
  private importing?: { ended: Promise<void>; end: () => void };

  constructor(
    private readonly records: ImportJobRecords,
    private readonly others: OtherImports = NO_OTHER_IMPORTS,
  ) {}

  /** Whether an import (of this process or another) writes now, so that a write here would wait. */
  get importWriting(): boolean {
    return this.importing !== undefined || this.others.anyRunning();
  }

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
   * Once no import runs, begins `job` and stores it (running) with every job noted meanwhile, then
   * runs `work`, its import: no write of these waits on it meanwhile.
   */
  async runImport<T>(job: ImportJob, work: () => Promise<T>): Promise<T> {
    // Cancelled while it waits, it stops waiting (and never begins).
    await this.step(async () => {
      job.begin();
      this.pending.set(job.id, job);
      await this.writePending();
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      this.importing = { ended, end };
    }, job.signal);
    try {
      return await work();
    } finally {
      this.importing?.end();
      this.importing = undefined;
    }
  }

  private step<T>(write: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const next = this.chain.then(async () => {
      for (;;) {
        signal?.throwIfAborted();
        const importing = this.importing?.ended ?? this.others.whenNoneRunning();
        if (importing === undefined) return write();
        await (signal === undefined ? importing : Promise.race([importing, rejectOnAbort(signal)]));
      }
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
