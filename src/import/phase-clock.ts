import { performance } from 'node:perf_hooks';
import { ImportPhase, ImportTimings } from '../import-logs/import-log.types';

/**
 * Tells an import's wall time by phase (`ImportTimings`). One phase runs at a time: entering one
 * pauses the phase it interrupts, which goes on when it ends, so that nested phases (an item built
 * while a batch is compared) are not counted twice. The run is one sequence of awaits, never two
 * at once, which is what makes that sound.
 */
export class PhaseClock {
  private readonly spent = new Map<ImportPhase, number>();
  private current: ImportPhase | undefined;
  private since: number;
  private readonly start: number;

  /** `before`: milliseconds spent before the clock started (the body spooled), in `receiving`. */
  constructor(
    private readonly before = 0,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.start = this.now();
    this.since = this.start;
    if (before > 0) this.spent.set('receiving', before);
  }

  /** Runs `work` as `phase`, then goes back to the phase it interrupted. */
  async measure<T>(phase: ImportPhase, work: () => Promise<T>): Promise<T> {
    const outer = this.enter(phase);
    try {
      return await work();
    } finally {
      this.enter(outer);
    }
  }

  /** `measure` for work that does not wait. */
  measureSync<T>(phase: ImportPhase, work: () => T): T {
    const outer = this.enter(phase);
    try {
      return work();
    } finally {
      this.enter(outer);
    }
  }

  /** The items of `events`, the time spent waiting for each counted as `phase`. */
  async *timed<T>(phase: ImportPhase, events: AsyncIterable<T>): AsyncGenerator<T> {
    const iterator = events[Symbol.asyncIterator]();
    let done = false;
    try {
      while (true) {
        const next = await this.measure(phase, () => iterator.next());
        if (next.done) {
          done = true;
          return;
        }
        yield next.value;
      }
    } finally {
      // Stopped early (an error, a cancel): the reader is told, as `for await` would tell it.
      if (!done) await iterator.return?.();
    }
  }

  /**
   * The time so far, in whole milliseconds: phases rounded down and the total up, so that they
   * still sum to at most the total. Phases never entered are left out.
   */
  timings(): ImportTimings {
    const now = this.now();
    const timings: ImportTimings = { total: Math.ceil(this.before + now - this.start) };
    for (const [phase, spent] of this.spent) timings[phase] = Math.floor(spent);
    if (this.current !== undefined) {
      timings[this.current] = Math.floor((this.spent.get(this.current) ?? 0) + now - this.since);
    }
    return timings;
  }

  /** Ends the phase running (if any) and starts `phase` (none: `undefined`); gives the one ended. */
  enter(phase: ImportPhase | undefined): ImportPhase | undefined {
    const now = this.now();
    if (this.current !== undefined) {
      this.spent.set(this.current, (this.spent.get(this.current) ?? 0) + now - this.since);
    }
    const outer = this.current;
    this.current = phase;
    this.since = now;
    return outer;
  }
}
