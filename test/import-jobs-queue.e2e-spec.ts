import request from 'supertest';
import { ImportJobRecords } from '../src/import-jobs/import-job-records';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf, jobEvents } from './support/job-events';
import { until } from './support/polling';
import { holdNextImport } from './support/job-holds';

/**
 * Jobs waiting for the writer while another import runs (held mid-write by the test): listed as
 * queued, stored once the import ahead ends (never while it holds the writer: a write of the
 * serving thread would wait for it), and cancelled at once.
 */
describe('import jobs waiting for the writer (import worker thread)', () => {
  let app: ImportTestApp;
  let records: ImportJobRecords;
  let opsToken: string;

  beforeAll(async () => {
    app = await createImportTestApp({ IMPORT_RUNNER: 'thread' });
    records = new ImportJobRecords(app.store);
    opsToken = await app.token('ops');
  });
  afterAll(() => app.close());

  const postEad = (scope: string, fonds: string, units: number) =>
    app
      .post('ead', { scope, commit: 'true', tag: `${fonds}.xml` })
      .set('Content-Type', 'application/xml')
      .set('Prefer', 'respond-async')
      .send(eadOf(fonds, units));
  const getJob = (id: string) =>
    request(app.server).get(`/import/jobs/${id}`).set('Authorization', `Bearer ${app.importToken}`);
  const listIds = async (query: Record<string, string>) =>
    (
      await request(app.server).get('/import/jobs').query(query).set('Authorization', `Bearer ${opsToken}`)
    ).body.items.map((job: { id: string }) => job.id) as string[];
  const storedState = async (id: string) => (await records.get(id))?.document.state;

  it('lists queued jobs, stores them once the writer is free, and cancels one at once', async () => {
    await app.addRepository('rq');
    const holdFirst = holdNextImport(app.app);
    const holdSecond = holdNextImport(app.app);
    const first = (await postEad('rq', 'fq1', 150)).body.id as string;
    expect(await holdFirst.reached).toBe(first);

    const second = await postEad('rq', 'fq2', 150);
    const third = await postEad('rq', 'fq3', 5);
    const fourth = await postEad('rq', 'fq4', 5);
    for (const queued of [second, third, fourth]) {
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({ state: 'queued', phase: null });
    }
    const [secondId, thirdId, fourthId] = [second, third, fourth].map(({ body }) => body.id as string);
    expect((await getJob(secondId)).body).toMatchObject({ state: 'queued', phase: null, finished: null });
    expect(await listIds({ state: 'queued' })).toEqual([fourthId, thirdId, secondId]);
    expect(await listIds({ state: 'running' })).toEqual([first]);

    // Cancelled while it waits: answered at once, while the first import still holds the writer.
    const cancelled = await request(app.server)
      .delete(`/import/jobs/${fourthId}`)
      .set('Authorization', `Bearer ${app.importToken}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', error: { status: 409 } });

    // Nothing was written while the first import held the writer: it alone is stored, as running.
    expect(await storedState(first)).toBe('running');
    for (const id of [secondId, thirdId, fourthId]) expect(await storedState(id)).toBeUndefined();

    // Once it ends: stored committed, the second running (held), the third still queued.
    holdFirst.release();
    expect(await holdSecond.reached).toBe(secondId);
    expect(await storedState(first)).toBe('committed');
    expect(await storedState(secondId)).toBe('running');
    expect(await storedState(thirdId)).toBe('queued');
    expect(await storedState(fourthId)).toBe('cancelled');
    expect((await getJob(thirdId)).body).toMatchObject({ state: 'queued' });

    holdSecond.release();
    const { events } = await jobEvents(app.server, thirdId, app.importToken);
    expect(events.at(-1)!.data).toMatchObject({ state: 'committed', log: { created: 6 } });
    expect(await storedState(secondId)).toBe('committed');
    // A job's outcome is sent as it ends, and its record written just after: the stream can end first.
    await until(
      'the third job stored',
      () => storedState(thirdId),
      (state) => state === 'committed',
    );
  });

  it("answers 409 to a cancel of a job another process runs (a command line's import)", async () => {
    // As the command line stores its job when it starts running.
    const { body: listed } = await request(app.server)
      .get('/import/jobs')
      .query({ state: 'committed', limit: '1' })
      .set('Authorization', `Bearer ${opsToken}`);
    const document = {
      ...listed.items[0],
      id: 'cli-job',
      state: 'running',
      phase: 'reading',
      finished: null,
    };
    await records.put([{ document, pid: process.ppid }]);
    const job = await request(app.server)
      .get('/import/jobs/cli-job')
      .set('Authorization', `Bearer ${opsToken}`);
    expect(job.body).toMatchObject({ id: 'cli-job', state: 'running' });

    const cancel = await request(app.server)
      .delete('/import/jobs/cli-job')
      .set('Authorization', `Bearer ${opsToken}`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.details).toContain('runs in another process');
    expect(await storedState('cli-job')).toBe('running');
  });
});
