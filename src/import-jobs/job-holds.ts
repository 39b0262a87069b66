/** Where a held job stops: inside its transaction, once its first batch of items is written. */
export type HoldPoint = 'writing';

/**
 * A test's hold on a job: the job stops at `point` (`reached` resolves with its id) until
 * `release` is called or the job is cancelled.
 */
export class JobHold {
  readonly reached: Promise<string>;
  private arrive!: (jobId: string) => void;
  private readonly releasing: Promise<void>;
  private free!: () => void;

  constructor(readonly point: HoldPoint) {
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

/** Holds waiting for the next jobs, first asked first given. */
export class JobHolds {
  private readonly pending: JobHold[] = [];

  add(point: HoldPoint): JobHold {
    const hold = new JobHold(point);
    this.pending.push(hold);
    return hold;
  }

  take(): JobHold | undefined {
    return this.pending.shift();
  }
}
