import type { INestApplicationContext } from '@nestjs/common';
import { ImportRunner } from '../../src/import/running/import-runner';
import type { ImportTask, RunControl } from '../../src/import/running/import-task';

/**
 * A test's hold on an import: its run stops inside its transaction, once its first batch of items
 * is written (`reached` resolves with its job's id), until `release` is called or the job is
 * cancelled; so that a test can look at a job mid-way without timing it.
 */
export class JobHold {
  readonly reached: Promise<string>;
  private arrive!: (jobId: string) => void;
  private readonly releasing: Promise<void>;
  private free!: () => void;

  constructor() {
    this.reached = new Promise((resolve) => (this.arrive = resolve));
    this.releasing = new Promise((resolve) => (this.free = resolve));
  }

  release(): void {
    this.free();
  }

  /** Stops the job `jobId` here until released; rejects with `signal`'s reason if it aborts first. */
  async stop(jobId: string, signal: AbortSignal): Promise<void> {
    this.arrive(jobId);
    signal.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const aborted = () => reject(signal.reason as Error);
      signal.addEventListener('abort', aborted, { once: true });
      void this.releasing.then(() => {
        signal.removeEventListener('abort', aborted);
        resolve();
      });
    });
  }
}

/** The holds waiting for each runner's next runs, first asked first given. */
const waiting = new WeakMap<ImportRunner, JobHold[]>();

/** Wraps the runner's `run` once: a run that finds a hold waiting is held past its first batch. */
function holdingRuns(runner: ImportRunner): JobHold[] {
  const holds = waiting.get(runner);
  if (holds !== undefined) return holds;
  const queue: JobHold[] = [];
  waiting.set(runner, queue);
  const run = runner.run.bind(runner);
  runner.run = (task: ImportTask, control: RunControl) => {
    const hold = queue.shift();
    if (hold === undefined) return run(task, control);
    return run(task, {
      signal: control.signal,
      report: (report) => control.report(report),
      firstBatchWritten: async () => {
        await control.firstBatchWritten();
        await hold.stop(task.jobId, control.signal);
      },
    });
  };
  return queue;
}

/** Holds the next import the app runs (after those already held) past its first batch. */
export function holdNextImport(app: INestApplicationContext): JobHold {
  const hold = new JobHold();
  holdingRuns(app.get(ImportRunner)).push(hold);
  return hold;
}
