import { OUT } from './bench-paths';
import { MemoryAtPeak, sampledMemory } from './memory-sampler';
import { ThreadCpuMs, ThreadCpuSampler } from './thread-cpu';

/** A benchmark phase's figures, as its child process reports them. */
export interface Measurement {
  ms: number;
  cpuMs: number;
  /** The main thread's share of `cpuMs`, where the system tells it (Linux). */
  mainCpuMs?: number;
  /** `cpuMs` by thread (Linux). */
  threadCpuMs?: ThreadCpuMs;
  peakRssMb: number;
  memoryAtPeak?: MemoryAtPeak;
  heapSnapshot?: string;
  result?: Record<string, unknown>;
}

/** The phase this child process runs (`--phase`), which names its heap snapshot. */
function phaseName(): string {
  const index = process.argv.indexOf('--phase');
  return index === -1 ? 'phase' : process.argv[index + 1];
}

/**
 * `work`'s wall time, CPU time (by thread, on Linux) and memory (`sampledMemory`,
 * which writes a heap snapshot when `BENCH_HEAP_SNAPSHOT_MB` asks for one).
 */
export async function measure(work: () => Promise<Record<string, unknown>>): Promise<Measurement> {
  const cpu = process.cpuUsage();
  const threads = new ThreadCpuSampler();
  const sampling = setInterval(() => threads.sample(), 50);
  const started = process.hrtime.bigint();
  const snapshotAtHeapMb = Number(process.env.BENCH_HEAP_SNAPSHOT_MB ?? 0);
  const { result, memoryAtPeak, heapSnapshot } = await sampledMemory(
    work,
    snapshotAtHeapMb > 0 ? { atHeapMb: snapshotAtHeapMb, folder: OUT, name: phaseName() } : undefined,
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampling);
  const used = process.cpuUsage(cpu);
  const threadCpuMs = threads.result((used.user + used.system) / 1000);
  return {
    ms: Math.round(ms),
    cpuMs: Math.round((used.user + used.system) / 1000),
    ...(threadCpuMs !== undefined && { mainCpuMs: threadCpuMs.main, threadCpuMs }),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    memoryAtPeak,
    ...(heapSnapshot !== undefined && { heapSnapshot }),
    result,
  };
}
