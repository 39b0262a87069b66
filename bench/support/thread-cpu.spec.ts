import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { ThreadCpuSampler } from './thread-cpu';

/** Keeps a thread busy until it has had `ms` of CPU, however loaded the machine. */
const BUSY = (ms: number) => `const start = process.threadCpuUsage();
  for (let used = 0; used < ${ms * 1000}; ) { const { user, system } = process.threadCpuUsage(start); used = user + system; }`;

const onLinux = process.platform === 'linux';
if (!onLinux)
  console.warn(`thread-cpu.spec: skipped on ${process.platform}: threads' CPU times come from Linux's /proc`);

(onLinux ? describe : describe.skip)('ThreadCpuSampler', () => {
  it('counts a worker started in the phase apart from the main thread, up to its last sample after it ended', async () => {
    const cpu = process.cpuUsage();
    const sampler = new ThreadCpuSampler();
    const worker = new Worker(BUSY(300), { eval: true });
    const sampling = setInterval(() => sampler.sample(), 20);
    await once(worker, 'exit');
    clearInterval(sampling);
    new Function(BUSY(100))();
    const { user, system } = process.cpuUsage(cpu);
    const threads = sampler.result((user + system) / 1000)!;
    expect(threads.workersStarted).toBeGreaterThanOrEqual(280);
    expect(threads.workersStarted).toBeLessThan(600);
    expect(threads.main).toBeGreaterThanOrEqual(90);
    expect(threads.workersBefore).toBe(0);
    expect(threads.endedUnsampled).toBeLessThan(100);
  });
});
