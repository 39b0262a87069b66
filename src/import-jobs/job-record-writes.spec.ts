import { ImportJob } from './import-job';
import { ImportJobRecords } from './import-job-records';
import { StoredJob } from './import-job.types';
import { JobCancelled } from './job-cancelled';
import { JobRecordWrites } from './job-record-writes';

const spec = { endpoint: 'ead', user: 'mike', parameters: {}, commit: true };

/** Records written, each write (one transaction) as the states it stored. */
function recorder() {
  const writes: string[][] = [];
  const records = {
    put: async (jobs: StoredJob[]) => {
      writes.push(jobs.map(({ document }) => `${document.id}:${document.state}`));
    },
  } as unknown as ImportJobRecords;
  return { writes, records };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('JobRecordWrites', () => {
  it('writes nothing while an import runs, then what was noted meanwhile, before the next import', async () => {
    const { writes, records } = recorder();
    const recordWrites = new JobRecordWrites(records);
    const [first, second] = ['a', 'b'].map((id) => new ImportJob(id, spec, new Date().toISOString()));
    let endImport!: () => void;
    const importing = recordWrites.runImport(
      first,
      () => new Promise<void>((resolve) => (endImport = resolve)),
    );
    await settle();
    expect(writes).toEqual([['a:running']]);

    second.waiting();
    const queued = recordWrites.record(second);
    const other = recordWrites.betweenImports(async () => writes.push(['log']));
    await settle();
    expect(writes).toEqual([['a:running']]);

    endImport();
    await Promise.all([importing, queued, other]);
    expect(writes).toEqual([['a:running'], ['b:queued'], ['log']]);
  });

  it("waits for another process's import, and a job cancelled meanwhile stops waiting, never begun", async () => {
    const { writes, records } = recorder();
    let othersEnd!: () => void;
    let othersRunning = true;
    const othersEnded = new Promise<void>((resolve) => (othersEnd = resolve));
    const recordWrites = new JobRecordWrites(records, {
      anyRunning: () => othersRunning,
      whenNoneRunning: () => (othersRunning ? othersEnded : undefined),
    });
    const [cancelled, next] = ['c', 'd'].map((id) => new ImportJob(id, spec, new Date().toISOString()));
    let worked = false;
    const waiting = recordWrites.runImport(cancelled, async () => (worked = true));
    const nextWaiting = recordWrites.runImport(next, async () => 'done');
    await settle();
    expect(recordWrites.importWriting).toBe(true);
    cancelled.cancel('Cancelled by request');
    await expect(waiting).rejects.toBeInstanceOf(JobCancelled);
    expect(cancelled.state).toBe('queued');
    expect(writes).toEqual([]);

    othersRunning = false;
    expect(recordWrites.importWriting).toBe(false);
    othersEnd();
    expect(await nextWaiting).toBe('done');
    expect(worked).toBe(false);
    expect(writes).toEqual([['d:running']]);
  });
});
