import { ImportJob } from './import-job';
import { JobCancelled } from './job-cancelled';

const spec = { endpoint: 'ead', user: 'mike', parameters: { scope: 'r1' }, commit: true };

describe('ImportJob', () => {
  it('reports its progress as it is told, and estimates the time left from the bytes read', () => {
    const job = new ImportJob('j1', spec, '2026-01-01T00:00:00.000Z');
    const start = job.startedAt;
    expect(job.document(start)).toMatchObject({
      state: 'queued',
      phase: 'receiving',
      remainingSeconds: null,
    });
    job.begin();
    job.report({ bytesTotal: 1000, bytesRead: 250, items: 40, created: 30, sources: { total: 2 } });
    const document = job.document(start + 2000);
    expect(document).toMatchObject({
      state: 'running',
      phase: 'reading',
      progress: { bytes: { read: 250, total: 1000 }, items: 40, created: 30, sources: { done: 0, total: 2 } },
      elapsedSeconds: 2,
      remainingSeconds: 6,
    });
    expect(job.rate(start + 2000)).toBe(20);
  });

  it('ends once: its state, log and error stay as the first end left them', () => {
    const job = new ImportJob('j2', spec, '2026-01-01T00:00:00.000Z');
    const ends: string[] = [];
    job.on('end', () => ends.push(job.state));
    job.end({ state: 'failed', error: { status: 400, error: 'Bad Request', details: 'bad' } });
    job.end({ state: 'committed' });
    job.report({ items: 5 });
    expect(ends).toEqual(['failed']);
    expect(job.document()).toMatchObject({ state: 'failed', phase: null, remainingSeconds: null });
    expect(job.progress.items).toBe(0);
  });

  it('aborts its signal with a JobCancelled when cancelled, and not once it has finished', () => {
    const job = new ImportJob('j3', spec, '2026-01-01T00:00:00.000Z');
    job.cancel('Cancelled by request');
    expect(job.signal.reason).toBeInstanceOf(JobCancelled);
    expect((job.signal.reason as Error).message).toBe('Cancelled by request');

    const done = new ImportJob('j4', spec, '2026-01-01T00:00:00.000Z');
    done.end({ state: 'committed' });
    done.cancel('too late');
    expect(done.signal.aborted).toBe(false);
  });
});
