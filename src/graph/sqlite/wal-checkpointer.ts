import { Worker } from 'node:worker_threads';

/**
 * The worker: its own connection, one checkpoint per message, answered when done. TRUNCATE with no
 * busy timeout: it takes the write lock only if it is free (holding it while it copies), and it
 * empties the WAL file only if no reader is using it; otherwise it copies what it can, as PASSIVE.
 */
const WORKER_SOURCE = `
  const { parentPort, workerData } = require('node:worker_threads');
  const Database = require(workerData.driver);
  const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
  parentPort.on('message', () => {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Another process is checkpointing, say: the pages wait for the next checkpoint.
    }
    parentPort.postMessage('done');
  });
`;

/**
 * Copies committed pages from the WAL into the database file after each commit, in a worker
 * thread: after a large import that is hundreds of megabytes, which SQLite's own checkpoint would
 * copy inside the COMMIT, on the event loop. It never waits for readers and never blocks them;
 * pages a reader still needs stay for a later round, and a writer that finds the write lock taken
 * waits for it as for any other writer. Should no worker run, the pages are checkpointed where
 * SQLite would have (`checkpointInPlace`, on the writer's connection).
 */
export class WalCheckpointer {
  private worker?: Worker;
  private wanted = false;
  private running?: Promise<void>;

  constructor(
    private readonly file: string,
    private readonly checkpointInPlace: () => void,
  ) {}

  /** Asks for a checkpoint; one asked for while another runs follows it. */
  request(): void {
    this.wanted = true;
    this.running ??= this.checkpointWhileWanted();
  }

  /** Waits for the checkpoint under way, then stops the worker. */
  async close(): Promise<void> {
    await this.running;
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private async checkpointWhileWanted(): Promise<void> {
    while (this.wanted) {
      this.wanted = false;
      await this.checkpoint();
    }
    this.running = undefined;
  }

  private checkpoint(): Promise<void> {
    let worker: Worker;
    try {
      worker = this.worker ??= this.startWorker();
    } catch {
      this.fallBack();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const settle = () => {
        worker.off('message', settle);
        worker.off('error', lost);
        resolve();
      };
      const lost = () => {
        this.worker = undefined;
        this.fallBack();
        settle();
      };
      worker.on('message', settle);
      worker.on('error', lost);
      worker.postMessage('checkpoint');
    });
  }

  private fallBack(): void {
    try {
      this.checkpointInPlace();
    } catch {
      // A write transaction is open on that connection: its commit asks again.
    }
  }

  private startWorker(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.file, driver: require.resolve('better-sqlite3') },
    });
    // An idle worker must not keep the process alive; `close` stops it.
    worker.unref();
    return worker;
  }
}
