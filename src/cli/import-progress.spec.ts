import { EventEmitter } from 'node:events';
import type { ImportJob } from '../import-jobs/import-job';
import { fitLine, showProgress } from './import-progress';

const PARTS = [
  '1200 items: 1000 created, 150 updated, 50 unchanged',
  'writing',
  '3.0 MB/6.0 MB',
  '400 items/s',
  '8 s left',
];

describe('fitLine', () => {
  it('fits a wide terminal: every part, then a bar with the percentage', () => {
    const line = fitLine(PARTS, 0.5, 200);
    expect(line).toBe(`${PARTS.join(' | ')} [${'#'.repeat(15)}${'.'.repeat(15)}]  50%`);
  });

  it('keeps within the width, counts first, dropping the bar and the last parts as it narrows', () => {
    for (const width of [120, 100, 80, 60, 40, 20, 1]) {
      const line = fitLine(PARTS, 0.25, width);
      expect(line.length).toBeLessThan(Math.max(width, 2));
      expect(line.startsWith(PARTS[0].slice(0, Math.max(width - 2, 0)))).toBe(true);
    }
    expect(fitLine(PARTS, 0.25, 130)).toBe(`${PARTS.join(' | ')} [#####..............]  25%`);
    expect(fitLine(PARTS, 0.25, 100)).toBe(PARTS.slice(0, 4).join(' | '));
    expect(fitLine(PARTS, 0.25, 80)).toBe(PARTS.slice(0, 3).join(' | '));
    expect(fitLine(PARTS, 0.25, 40)).toBe(`${PARTS[0].slice(0, 38)}…`);
  });

  it('draws no bar while the total is unknown', () => {
    expect(fitLine(PARTS, null, 200)).toBe(PARTS.join(' | '));
  });
});

/** What `showProgress` reads of a job. */
class FakeJob extends EventEmitter {
  phase: string | null = 'receiving';
  finished = false;
  progress = { bytes: { read: 0, total: 1000 }, items: 0, created: 0, updated: 0, unchanged: 0, errors: 0 };
  rate = () => 0;
  document = () => ({
    state: this.finished ? 'committed' : 'running',
    phase: this.phase,
    progress: this.progress,
    remainingSeconds: null,
  });
}

describe('showProgress', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('draws at once on a terminal, redraws while nothing changes, and ends with a line of its own', () => {
    const written: string[] = [];
    const job = new FakeJob();
    showProgress(job as unknown as ImportJob, {
      isTTY: true,
      columns: 60,
      write: (text) => written.push(text),
    });
    expect(written).toEqual([
      expect.stringMatching(/^\r0 items: 0 created, 0 updated, 0 unchanged \| receiving/),
    ]);
    jest.advanceTimersByTime(1_000);
    expect(written.length).toBeGreaterThanOrEqual(4);
    job.progress = { ...job.progress, items: 5, created: 5, bytes: { read: 1000, total: 1000 } };
    job.finished = true;
    job.phase = null;
    job.emit('end');
    const last = written.at(-1)!;
    expect(last).toMatch(/^\r5 items: 5 created, 0 updated, 0 unchanged \| committed.*\n$/);
    const ERASE_LINE = '\u001b[K';
    for (const text of written)
      expect(text.replace(/^\r|\n$/g, '').replace(ERASE_LINE, '').length).toBeLessThan(60);
    const count = written.length;
    jest.advanceTimersByTime(5_000);
    expect(written).toHaveLength(count);
  });

  it('writes plain lines to a log: one at the start, at most every 2 s, and the last', () => {
    const written: string[] = [];
    const job = new FakeJob();
    showProgress(job as unknown as ImportJob, { write: (text) => written.push(text) });
    expect(written).toHaveLength(1);
    jest.advanceTimersByTime(4_100);
    expect(written).toHaveLength(3);
    job.finished = true;
    job.phase = null;
    job.emit('end');
    expect(written.at(-1)).toMatch(
      /^0 items: 0 created, 0 updated, 0 unchanged \| committed \| 0\.0 kB\/1\.0 kB/,
    );
    expect(written.every((line) => line.endsWith('\n') && !line.includes('\r'))).toBe(true);
  });
});
