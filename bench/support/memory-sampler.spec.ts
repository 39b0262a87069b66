import { sampledMemory } from './memory-sampler';

describe('sampledMemory', () => {
  it("gives the work's result and the memory where the resident set peaked", async () => {
    const before = process.memoryUsage().arrayBuffers;
    const { result, memoryAtPeak } = await sampledMemory(async () => {
      // 64 MB held, and touched so that it is resident, across a few samples.
      const held = new Uint8Array(64 * 1024 * 1024).fill(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return held.length;
    });
    expect(result).toBe(64 * 1024 * 1024);
    expect(memoryAtPeak.arrayBuffersMb).toBeGreaterThanOrEqual(Math.floor(before / 2 ** 20) + 60);
    expect(memoryAtPeak.rssMb).toBeGreaterThanOrEqual(memoryAtPeak.heapUsedMb + 60);
    if (process.platform === 'linux') expect(memoryAtPeak.anonMb).toBeGreaterThan(60);
  });
});
