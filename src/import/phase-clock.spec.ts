import { PhaseClock } from './phase-clock';

/** A clock whose time moves only when the test says. */
function manualTime(): { now: () => number; advance: (ms: number) => void } {
  let time = 1000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('PhaseClock', () => {
  it('counts the time before it started as receiving, and in the total', () => {
    const time = manualTime();
    const clock = new PhaseClock(40, time.now);
    time.advance(10);
    expect(clock.timings()).toEqual({ receiving: 40, total: 50 });
  });

  it('pauses a phase while a nested one runs, and resumes it after', async () => {
    const time = manualTime();
    const clock = new PhaseClock(0, time.now);
    await clock.measure('comparing', async () => {
      time.advance(5);
      clock.measureSync('building', () => time.advance(7));
      time.advance(3);
    });
    time.advance(4);
    expect(clock.timings()).toEqual({ comparing: 8, building: 7, total: 19 });
  });

  it('counts a phase that fails, and leaves it', async () => {
    const time = manualTime();
    const clock = new PhaseClock(0, time.now);
    await expect(
      clock.measure('writing', async () => {
        time.advance(6);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    time.advance(2);
    expect(clock.timings()).toEqual({ writing: 6, total: 8 });
  });

  it('counts the phase running when asked', async () => {
    const time = manualTime();
    const clock = new PhaseClock(0, time.now);
    let seen: ReturnType<PhaseClock['timings']> | undefined;
    await clock.measure('writing', async () => {
      time.advance(9);
      seen = clock.timings();
    });
    expect(seen).toEqual({ writing: 9, total: 9 });
  });

  it('rounds phases down and the total up, so that they sum to at most it', () => {
    const time = manualTime();
    const clock = new PhaseClock(0.6, time.now);
    clock.measureSync('reading', () => time.advance(0.6));
    clock.measureSync('writing', () => time.advance(0.6));
    const timings = clock.timings();
    expect(timings).toEqual({ receiving: 0, reading: 0, writing: 0, total: 2 });
  });

  it('times the waits for the items of an iterable, not what is done with them', async () => {
    const time = manualTime();
    const clock = new PhaseClock(0, time.now);
    async function* items() {
      time.advance(4);
      yield 1;
      time.advance(4);
      yield 2;
      time.advance(1);
    }
    const seen: number[] = [];
    for await (const item of clock.timed('reading', items())) {
      seen.push(item);
      time.advance(10);
    }
    expect(seen).toEqual([1, 2]);
    expect(clock.timings()).toEqual({ reading: 9, total: 29 });
  });

  it('tells the iterable when its reader stops early', async () => {
    const clock = new PhaseClock();
    let closed = false;
    async function* items() {
      try {
        yield 1;
        yield 2;
      } finally {
        closed = true;
      }
    }
    for await (const item of clock.timed('reading', items())) if (item === 1) break;
    expect(closed).toBe(true);
  });
});
