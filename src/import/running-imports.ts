import { ImportInterruptedError, shuttingDown } from './import-errors';

/**
 * How long cancelled imports have to stop on their own (a cancel lands at the next batch) before
 * their worker is stopped under them (`drain`'s `stop`).
 */
export const CANCEL_WAIT_MS = 500;

/** A running import: how to cancel it, and when it has settled (rolled back and logged, if so). */
interface RunningImport {
  controller: AbortController;
  settled: Promise<unknown>;
}

/**
 * The imports this process is running, so that shutting down can let them finish and cancel
 * those that take too long (`drain`). Once it drains, new imports are refused.
 */
export class RunningImports {
  private readonly runs = new Set<RunningImport>();
  /** Writes that imports left behind them (`settleLater`), settled or not. */
  private readonly writesLeft = new Set<Promise<unknown>>();
  private draining = false;

  get size(): number {
    return this.runs.size;
  }

  /** Runs `work` as a running import; its `signal` aborts if shutting down cancels it. */
  async track<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.draining) throw shuttingDown();
    const controller = new AbortController();
    const done = work(controller.signal);
    const run: RunningImport = { controller, settled: done.catch(() => undefined) };
    this.runs.add(run);
    try {
      return await done;
    } finally {
      this.runs.delete(run);
    }
  }

  /** A write an import that has answered leaves to be made later; draining waits for it too. */
  settleLater(write: Promise<unknown>): void {
    const settled = write.catch(() => undefined);
    this.writesLeft.add(settled);
    void settled.then(() => this.writesLeft.delete(settled));
  }

  /**
   * Refuses new imports, waits up to `graceMs` for the running ones (and the writes left behind),
   * then cancels the imports left; those not stopped `CANCEL_WAIT_MS` later (an import past its
   * last check of the cancel, committing) are stopped by `stop`, which ends the worker under them,
   * so that their transaction rolls back. Waits until all have settled; answers how many were
   * cancelled, and how long the stopped ones took to settle, if any was (`stoppedMs`).
   */
  async drain(
    graceMs: number,
    stop: () => Promise<void> = async () => undefined,
  ): Promise<{ cancelled: number; stoppedMs?: number }> {
    this.draining = true;
    const settled = () => Promise.all([...[...this.runs].map((run) => run.settled), ...this.writesLeft]);
    if (!(await within(settled(), graceMs))) return { cancelled: 0 };
    const cancelled = [...this.runs];
    for (const run of cancelled) run.controller.abort(new ImportInterruptedError());
    if (await within(settled(), CANCEL_WAIT_MS)) {
      const stopping = Date.now();
      await stop();
      await settled();
      return { cancelled: cancelled.length, stoppedMs: Date.now() - stopping };
    }
    return { cancelled: cancelled.length };
  }
}

/** Whether `work` is still going `ms` later. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<true>((resolve) => (timer = setTimeout(resolve, ms, true)));
  const overdue = await Promise.race([work.then(() => false), over]);
  clearTimeout(timer);
  return overdue;
}
