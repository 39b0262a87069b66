import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

/** How often memory is sampled while a phase runs. */
const SAMPLE_MS = 50;

/**
 * A phase's memory where its resident set was largest, in MB: the resident set split as Linux
 * tells it (`/proc/self/status`: anonymous memory, which holds every thread's heap and SQLite's
 * page caches, and file pages mapped in, which SQLite's memory-mapped reads count in), and the main
 * thread's V8 heap (what its objects use, and what it has taken from the system, garbage not yet
 * collected included), with the memory its objects hold outside it (`external`, of which
 * `arrayBuffers`).
 */
export interface MemoryAtPeak {
  rssMb: number;
  anonMb?: number;
  fileMb?: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** `RssAnon` and `RssFile` of `/proc/self/status` in MB; nothing off Linux. */
function residentKinds(): { anonMb?: number; fileMb?: number } {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return {};
  }
  const kib = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return match === null ? undefined : Math.round(Number(match[1]) / 1024);
  };
  return { anonMb: kib('RssAnon'), fileMb: kib('RssFile') };
}

function sample(): MemoryAtPeak {
  const usage = process.memoryUsage();
  return {
    rssMb: mb(usage.rss),
    ...residentKinds(),
    heapUsedMb: mb(usage.heapUsed),
    heapTotalMb: mb(usage.heapTotal),
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
  };
}

/**
 * Samples the process's memory while `work` runs and gives the sample with the largest resident
 * set. With `snapshot`, writes one V8 heap snapshot of the main thread into its
 * `folder` the first time its heap holds `atHeapMb` MB (`BENCH_HEAP_SNAPSHOT_MB`): what
 * holds the heap at its peak. Samples are taken when the event loop turns, which an import lets
 * it do between batches.
 */
export async function sampledMemory<T>(
  work: () => Promise<T>,
  snapshot?: { atHeapMb: number; folder: string; name: string },
): Promise<{ result: T; memoryAtPeak: MemoryAtPeak; heapSnapshot?: string }> {
  let peak = sample();
  let heapSnapshot: string | undefined;
  const timer = setInterval(() => {
    const now = sample();
    if (now.rssMb > peak.rssMb) peak = now;
    if (snapshot !== undefined && heapSnapshot === undefined && now.heapUsedMb >= snapshot.atHeapMb) {
      heapSnapshot = writeHeapSnapshot(
        path.join(snapshot.folder, `${snapshot.name}-${process.pid}.heapsnapshot`),
      );
    }
  }, SAMPLE_MS);
  try {
    const result = await work();
    const last = sample();
    if (last.rssMb > peak.rssMb) peak = last;
    return { result, memoryAtPeak: peak, ...(heapSnapshot !== undefined && { heapSnapshot }) };
  } finally {
    clearInterval(timer);
  }
}
