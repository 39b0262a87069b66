import { ImportInterruptedError } from './import-errors';
import { RunningImports } from './running-imports';

/** Work that ends when `finish` is called, or rejects with the signal's reason when it aborts. */
function controllable() {
  let finish!: (value: string) => void;
  const work = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      finish = resolve;
      signal.addEventListener('abort', () => reject(signal.reason as Error));
    });
  return { work, finish: (value: string) => finish(value) };
}

describe('RunningImports', () => {
  it('counts what runs, and lets an import that ends within the grace period finish', async () => {
    const running = new RunningImports();
    const one = controllable();
    const done = running.track(one.work);
    expect(running.size).toBe(1);

    const drained = running.drain(10_000);
    one.finish('finished');

    await expect(done).resolves.toBe('finished');
    await expect(drained).resolves.toEqual({ cancelled: 0 });
    expect(running.size).toBe(0);
  });

  it('cancels what still runs after the grace period, and waits until it has settled', async () => {
    const running = new RunningImports();
    const done = running.track(controllable().work);

    const { cancelled, stoppedMs } = await running.drain(20);

    expect(cancelled).toBe(1);
    expect(stoppedMs).toBeUndefined();
    await expect(done).rejects.toBeInstanceOf(ImportInterruptedError);
    expect(running.size).toBe(0);
  });

  it('stops what a cancel does not stop, with `stop`, and says how long it then took to settle', async () => {
    const running = new RunningImports();
    let end!: () => void;
    const done = running.track(() => new Promise<void>((resolve) => (end = resolve)));
    const stop = jest.fn(async () => {
      setTimeout(end, 30);
    });

    const drained = await running.drain(0, stop);

    expect(stop).toHaveBeenCalledTimes(1);
    expect(drained.cancelled).toBe(1);
    expect(drained.stoppedMs).toBeGreaterThanOrEqual(20);
    await done;
  });

  it('waits, draining, for a write an import left behind, without counting it as running', async () => {
    const running = new RunningImports();
    let write!: () => void;
    running.settleLater(new Promise<void>((resolve) => (write = resolve)));
    expect(running.size).toBe(0);

    let drained = false;
    const draining = running.drain(10_000).then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    write();
    await draining;
    expect(drained).toBe(true);
  });

  it('refuses new imports once draining, with 503', async () => {
    const running = new RunningImports();
    await running.drain(0);
    const work = jest.fn();
    await expect(running.track(work)).rejects.toMatchObject({ status: 503 });
    expect(work).not.toHaveBeenCalled();
  });
});
