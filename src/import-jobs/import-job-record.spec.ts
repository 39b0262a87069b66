import { IMPORT_JOB_RECORD_TYPE, jobOf, jobQuery, jobRecord } from './import-job-record';
import { ImportJobDocument, StoredJob } from './import-job.types';

const document: ImportJobDocument = {
  id: 'job1',
  endpoint: 'ead',
  user: 'mike',
  tokenId: 't1',
  scope: 'nl-r1',
  parameters: { scope: 'nl-r1', tag: ['a', 'b'] },
  commit: true,
  state: 'running',
  phase: 'writing',
  progress: {
    items: 3,
    created: 2,
    updated: 1,
    unchanged: 0,
    errors: 0,
    sources: { done: 1, total: 2 },
    bytes: { read: 10, total: 20 },
  },
  started: '2026-01-01T00:00:00.000Z',
  finished: null,
  elapsedSeconds: 1.5,
  remainingSeconds: null,
  log: null,
  event: null,
  error: null,
};

describe('import job records', () => {
  it('reads back a job as it was written, with or without its token', () => {
    const job: StoredJob = { document, pid: 42, tokenId: 't1' };
    const record = jobRecord(job);
    expect(record).toMatchObject({
      id: 'job1',
      type: IMPORT_JOB_RECORD_TYPE,
      props: { endpoint: 'ead', user: 'mike', state: 'running', started: document.started, pid: 42 },
    });
    expect(jobOf(record)).toEqual(job);
    expect(jobOf(jobRecord({ document, pid: 42 }))).toEqual({ document, pid: 42, tokenId: undefined });
  });

  it('reads no job from another record', () => {
    expect(jobOf(undefined)).toBeUndefined();
    expect(jobOf({ id: 'job1', type: 'ImportLog', props: {} })).toBeUndefined();
  });

  it('queries the jobs a filter keeps, newest first', () => {
    expect(jobQuery({ state: 'queued', user: 'mike' }, 5)).toEqual({
      type: IMPORT_JOB_RECORD_TYPE,
      equals: { state: 'queued', user: 'mike' },
      orderBy: { property: 'started', descending: true },
      limit: 5,
    });
  });
});
