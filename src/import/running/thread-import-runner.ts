import { ResourceLimits, Worker } from 'node:worker_threads';
import { AppConfig } from '../../config/app-config';
import { rejectOnAbort } from '../../import-jobs/job-cancelled';
import { ImportHttpError, ImportInterruptedError, ImportWorkerStoppedError } from '../import-errors';
import { startModuleWorker } from '../module-worker';
import { ImportRunner } from './import-runner';
import { ImportTask, ImportTaskResult, RunControl } from './import-task';
import { FromImportWorker, ImportWorkerInput, ToImportWorker } from './runner-messages';

/** The run the worker has: how to tell its caller what happens. */
interface Pending {
  control: RunControl;
  resolve(result: ImportTaskResult): void;
  reject(error: Error): void;
}

export interface ThreadRunnerOptions {
  /** The worker's heap and stack limits: an import past them fails alone, the service goes on. */
  resourceLimits?: ResourceLimits;
}

/**
 * Runs imports in a worker thread of their own (`import-worker.ts`), started at the first import
 * and kept for the next; one that stops (it ran out of memory, say) fails the run it had and is
 * started afresh for the next one. Progress, the go-on after the first batch and cancels travel as
 * messages.
 */
export class ThreadImportRunner extends ImportRunner {
  private worker?: Promise<Worker>;
  private pending?: Pending;

  constructor(
    private readonly config: AppConfig,
    private readonly options: ThreadRunnerOptions = {},
  ) {
    super();
  }

  async run(task: ImportTask, control: RunControl): Promise<ImportTaskResult> {
    if (this.pending !== undefined) throw new Error('The import worker runs one import at a time');
    // A worker still starting is not waited for by a run cancelled meanwhile.
    const worker = await Promise.race([this.started(), rejectOnAbort(control.signal)]);
    const cancel = () => {
      const reason = control.signal.reason as Error;
      this.post(worker, {
        type: 'cancel',
        reason: reason.message,
        interrupted: reason instanceof ImportInterruptedError,
      });
    };
    try {
      return await new Promise<ImportTaskResult>((resolve, reject) => {
        this.pending = { control, resolve, reject };
        control.signal.addEventListener('abort', cancel, { once: true });
        this.post(worker, { type: 'run', task });
      });
    } finally {
      control.signal.removeEventListener('abort', cancel);
      this.pending = undefined;
    }
  }

  override async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await (await worker.catch(() => undefined))?.terminate();
  }

  /** The worker, once it is ready; started if there is none. */
  private started(): Promise<Worker> {
    if (this.worker !== undefined) return this.worker;
    const starting: Promise<Worker> = new Promise<Worker>((resolve, reject) => {
      const input: ImportWorkerInput = { config: this.config };
      const worker = startModuleWorker(require.resolve('./import-worker'), input, {
        resourceLimits: this.options.resourceLimits,
      });
      let ready = false;
      worker.on('message', (message: FromImportWorker) => {
        if (message.type === 'ready') {
          ready = true;
          resolve(worker);
        } else {
          this.receive(worker, message);
        }
      });
      const stopped = (why: string, outOfMemory = false) => {
        if (this.worker === starting) this.worker = undefined;
        const error = new ImportWorkerStoppedError(why, outOfMemory);
        if (!ready) reject(error);
        this.pending?.reject(error);
      };
      worker.on('error', (error: NodeJS.ErrnoException) =>
        stopped(error.message, error.code === 'ERR_WORKER_OUT_OF_MEMORY'),
      );
      worker.on('exit', (code) => stopped(`exit code ${code}`));
    });
    this.worker = starting;
    return starting;
  }

  private receive(worker: Worker, message: FromImportWorker): void {
    const pending = this.pending;
    if (pending === undefined) return;
    switch (message.type) {
      case 'progress':
        pending.control.report(message.report);
        return;
      case 'first-batch':
        this.answerOnce(worker, pending.control.firstBatchWritten(), { type: 'go-on' });
        return;
      case 'done':
        pending.resolve(message.result);
        return;
      case 'failed':
        pending.reject(
          message.cancelled
            ? (pending.control.signal.reason as Error)
            : new ImportHttpError(message.error.status, message.error.details),
        );
        return;
    }
  }

  /** Sends `answer` once `done` resolves; if it rejects (cancelled), the cancel message stops the run. */
  private answerOnce(worker: Worker, done: Promise<void>, answer: ToImportWorker): void {
    done.then(
      () => this.post(worker, answer),
      () => undefined,
    );
  }

  private post(worker: Worker, message: ToImportWorker): void {
    worker.postMessage(message);
  }
}
