import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ImportJob } from './import-job';
import { JobJournal, journalJob } from './job-journal';

describe('JobJournal', () => {
  let folder: string;
  beforeEach(async () => (folder = await mkdtemp(path.join(tmpdir(), 'journal-test-'))));
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const jobOf = (id: string) =>
    new ImportJob(id, { endpoint: 'ead', user: 'u', parameters: {}, commit: true }, new Date().toISOString());

  it('keeps each going job in a file of its own, per store, until it ends', async () => {
    const journal = new JobJournal(folder, 'sqlite:/a.db');
    const other = new JobJournal(folder, 'sqlite:/b.db');
    const job = jobOf('j-1');
    const journalling = journalJob(journal, job, (error) => {
      throw error;
    });
    job.begin();
    job.report({ items: 42 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const [noted] = await journal.all();
    expect(noted).toMatchObject({ pid: process.pid, document: { id: 'j-1', state: 'running' } });
    expect(noted.document.progress.items).toBe(42);
    expect(await other.all()).toEqual([]);

    await journalling.end();
    expect(await journal.all()).toEqual([]);
    job.report({ items: 43 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await journal.all()).toEqual([]);
  });

  it('refuses an id that is not a name of its own', async () => {
    const journal = new JobJournal(folder, 'sqlite:/a.db');
    await expect(journal.remove('../x')).rejects.toThrow('Not a job id: ../x');
    // A job takes any number of watchers (one per event stream) without a warning.
    expect(jobOf('j-2').getMaxListeners()).toBe(0);
  });
});
