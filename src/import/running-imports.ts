import { ImportInterruptedError, shuttingDown } from './import-errors';

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
   * then cancels the imports left and waits until all have settled. Answers how many were cancelled.
   */
  async drain(graceMs: number): Promise<number> {
    this.draining = true;
    const settled = () => Promise.all([...[...this.runs].map((run) => run.settled), ...this.writesLeft]);
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<true>((resolve) => (timer = setTimeout(resolve, graceMs, true)));
    const overdue = await Promise.race([settled().then(() => false), graceOver]);
    clearTimeout(timer);
    if (!overdue) return 0;
    const cancelled = [...this.runs];
    for (const run of cancelled) run.controller.abort(new ImportInterruptedError());
    await settled();
    return cancelled.length;
  }
}
