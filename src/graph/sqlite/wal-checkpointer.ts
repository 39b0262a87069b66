import { Worker } from 'node:worker_threads';

/**
 * The worker: its own connection, said ready once open, then one checkpoint per message, answered
 * when done. TRUNCATE with no busy timeout: it takes the write lock only if it is free (holding it
 * while it copies), and it empties the WAL file only if no reader is using it; otherwise it copies
 * what it can, as PASSIVE.
 */
const WORKER_SOURCE = `
  const { parentPort, workerData } = require('node:worker_threads');
  const Database = require(workerData.driver);
  const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
  parentPort.postMessage('ready');
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
 *
 * The worker starts with the store, which waits until it has loaded the SQLite binding: a thread
 * stopped while it loads the binding aborts the whole process (a fatal error of the binding's
 * module registration), and the thread that opened the store may be stopped at any time after
 * (the import worker is, when the service closes).
 */
export class WalCheckpointer {
  private wanted = false;
  private running?: Promise<void>;

  private constructor(
    private worker: Worker | undefined,
    private readonly checkpointInPlace: () => void,
  ) {
    // A worker that fails or ends on its own (it should not) leaves checkpoints to the writer's
    // connection; its error, unheard, would be thrown in this thread.
    worker?.on('error', () => undefined).once('exit', () => (this.worker = undefined));
  }

  /**
   * Starts the worker on `file` with the SQLite binding `driver` (a module path) and resolves once
   * it is ready, or without one if it cannot start.
   */
  static async start(
    file: string,
    checkpointInPlace: () => void,
    driver = require.resolve('better-sqlite3'),
  ): Promise<WalCheckpointer> {
    return new WalCheckpointer(await startWorker(file, driver), checkpointInPlace);
  }

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
    const worker = this.worker;
    if (worker === undefined) {
      this.fallBack();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const settle = () => {
        worker.off('message', settle);
        worker.off('exit', lost);
        resolve();
      };
      // Ended before it answered (an error ends it too): the pages are checkpointed here.
      const lost = () => {
        this.fallBack();
        settle();
      };
      worker.on('message', settle);
      worker.on('exit', lost);
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
}

/** The worker once it has opened its connection; undefined if it could not (it has exited then). */
async function startWorker(file: string, driver: string): Promise<Worker | undefined> {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver } });
  } catch {
    return undefined;
  }
  const started = await new Promise<boolean>((resolve) => {
    const settle = (ready: boolean) => () => {
      worker.off('message', onReady).off('error', onFailed).off('exit', onFailed);
      resolve(ready);
    };
    const onReady = settle(true);
    const onFailed = settle(false);
    worker.on('message', onReady).on('error', onFailed).on('exit', onFailed);
  });
  if (!started) return undefined;
  // An idle worker must not keep the process alive; `close` stops it.
  worker.unref();
  return worker;
}
