import { SerialQueue } from './serial-queue';

describe('SerialQueue', () => {
  it('runs tasks one at a time, in the order they were queued', async () => {
    const queue = new SerialQueue();
    const events: string[] = [];
    let release!: () => void;
    const first = queue.run(async () => {
      events.push('first starts');
      await new Promise<void>((resolve) => (release = resolve));
      events.push('first ends');
    });
    const second = queue.run(async () => {
      events.push('second starts');
    });
    await Promise.resolve();
    expect(queue.length).toBe(2);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['first starts', 'first ends', 'second starts']);
    expect(queue.length).toBe(0);
  });

  it('runs the next task after one that failed, and hands the failure to its caller', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => Promise.reject(new Error('no')));
    const next = queue.run(async () => 'ran');
    await expect(failed).rejects.toThrow('no');
    await expect(next).resolves.toBe('ran');
  });
});
