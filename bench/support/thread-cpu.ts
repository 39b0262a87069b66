import { readdirSync, readFileSync } from 'node:fs';
import { procCpuMicros } from '../../test/support/proc-cpu';

/**
 * A phase's CPU time by thread, in ms, as Linux tells it (`/proc/self/task`): the main thread; the
 * worker threads that were there when the phase began (the store's WAL checkpointer) and those it
 * started (an import's reading worker); V8's helper threads (garbage collection, compilation);
 * libuv's pool (file reads, hashing) and the rest; and what threads that ended spent after they
 * were last sampled (the process's CPU time less the others).
 */
export interface ThreadCpuMs {
  main: number;
  workersBefore: number;
  workersStarted: number;
  v8Helpers: number;
  libuvPool: number;
  other: number;
  endedUnsampled: number;
}

type Group = Exclude<keyof ThreadCpuMs, 'endedUnsampled'>;

function groupOf(tid: string, name: string, before: ReadonlySet<string>): Group {
  if (tid === String(process.pid)) return 'main';
  if (name.startsWith('WorkerThread')) return before.has(tid) ? 'workersBefore' : 'workersStarted';
  if (name.startsWith('V8')) return 'v8Helpers';
  if (name.startsWith('libuv')) return 'libuvPool';
  return 'other';
}

/** Each thread's name and CPU time in microseconds, by thread id; empty off Linux. */
function threads(): Map<string, { name: string; micros: number }> {
  const found = new Map<string, { name: string; micros: number }>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return found;
  }
  for (const tid of tids) {
    const micros = procCpuMicros(`/proc/self/task/${tid}/stat`);
    let name: string;
    try {
      name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (micros !== undefined) found.set(tid, { name, micros });
  }
  return found;
}

/**
 * Follows the process's threads from its creation on: `sample()` as the phase runs, so that a
 * thread that ends before the phase does (a reading worker) counts up to its last sample;
 * `result(cpuMs)` the CPU each group of threads spent since, of the process's `cpuMs` in that
 * time; undefined off Linux.
 */
export class ThreadCpuSampler {
  private readonly start = threads();
  private readonly latest = new Map(this.start);

  sample(): void {
    for (const [tid, thread] of threads()) this.latest.set(tid, thread);
  }

  result(cpuMs: number): ThreadCpuMs | undefined {
    this.sample();
    if (this.latest.size === 0) return undefined;
    const before = new Set(this.start.keys());
    const totals: Record<Group, number> = {
      main: 0,
      workersBefore: 0,
      workersStarted: 0,
      v8Helpers: 0,
      libuvPool: 0,
      other: 0,
    };
    for (const [tid, { name, micros }] of this.latest) {
      totals[groupOf(tid, name, before)] += (micros - (this.start.get(tid)?.micros ?? 0)) / 1000;
    }
    let sampled = 0;
    for (const group of Object.keys(totals) as Group[]) {
      totals[group] = Math.round(totals[group]);
      sampled += totals[group];
    }
    // Linux counts in ticks of 10 ms: a few ms either way are its rounding, not a thread.
    return { ...totals, endedUnsampled: Math.max(0, Math.round(cpuMs) - sampled) };
  }
}
