import request from 'supertest';
import { IMPORT_PHASES } from '../src/import-logs/import-log.types';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf, jobEvents } from './support/job-events';
import { until } from './support/polling';
import { holdNextImport } from './support/job-holds';

/**
 * Imports as jobs, run in the import worker's thread as the service runs them by default:
 * `Prefer: respond-async`, the job document while the import runs (held by the test where it
 * chooses), the event stream, cancel, who sees which jobs, and reads answered meanwhile.
 */
describe('import jobs (import worker thread)', () => {
  let app: ImportTestApp;
  let opsToken: string;
  let portalToken: string;

  beforeAll(async () => {
    app = await createImportTestApp({ IMPORT_RUNNER: 'thread' });
    opsToken = await app.token('ops');
    portalToken = await app.token('portal');
  });
  afterAll(() => app.close());

  const postEad = (scope: string, body: string, query: Record<string, string> = {}) =>
    app
      .post('ead', { scope, commit: 'true', tag: `${scope}.xml`, ...query })
      .set('Content-Type', 'application/xml')
      .set('Prefer', 'respond-async')
      .send(body);
  const getJob = (id: string, token = app.importToken) =>
    request(app.server).get(`/import/jobs/${id}`).set('Authorization', `Bearer ${token}`);
  const listJobs = (query: Record<string, string> = {}, token = app.importToken) =>
    request(app.server).get('/import/jobs').query(query).set('Authorization', `Bearer ${token}`);
  /** Units stored below a repository. */
  const unitsIn = async (repository: string) =>
    (
      await app.store.read((tx) =>
        tx.search({ scope: { id: repository, depth: 'descendants' }, offset: 0, limit: 1 }),
      )
    ).total;

  /** A finished job's timings: whole, non-negative milliseconds up to the commit, within the total. */
  const expectTimingsWithCommit = (timings: Record<string, number>) => {
    expect(Object.keys(timings)).toEqual(
      expect.arrayContaining(['receiving', 'reading', 'committing', 'total']),
    );
    for (const ms of Object.values(timings)) expect(Number.isInteger(ms) && ms >= 0).toBe(true);
    const { total, ...byPhase } = timings;
    expect(Object.values(byPhase).reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(total);
  };

  it('answers 202 with Location and the job, which streams its progress and outcome', async () => {
    await app.addRepository('ra');
    const body = eadOf('fa', 250);
    const accepted = await postEad('ra', body);
    expect(accepted.status).toBe(202);
    expect(accepted.headers.location).toBe(`/import/jobs/${accepted.body.id}`);
    expect(accepted.headers['preference-applied']).toBe('respond-async');
    expect(accepted.body).toMatchObject({
      endpoint: 'ead',
      user: app.userId,
      scope: 'ra',
      commit: true,
      progress: { bytes: { total: Buffer.byteLength(body) } },
      log: null,
    });
    expect(['queued', 'running', 'committed']).toContain(accepted.body.state);

    const stream = await jobEvents(app.server, accepted.body.id, app.importToken);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const last = stream.events.at(-1)!;
    expect(last.event).toBe('outcome');
    expect(stream.events.slice(0, -1).every(({ event }) => event === 'progress')).toBe(true);
    expect(last.data).toMatchObject({
      state: 'committed',
      phase: null,
      log: { created: 251, updated: 0, unchanged: 0, errors: {} },
      progress: { sources: { done: 1, total: 1 }, created: 251 },
    });
    expect(last.data.event).toEqual(expect.any(String));
    expect(await unitsIn('ra')).toBe(251);

    // Its stored log, and the job as GET and the list give it.
    const log = await request(app.server)
      .get(`/import/logs/${last.data.event as string}`)
      .set('Authorization', `Bearer ${opsToken}`);
    expect(log.body).toMatchObject({ outcome: 'succeeded', log: { created: 251 } });
    // The job's timings go on to the end of the commit; the stored log's end before it.
    const timings = (last.data.log as { timings: Record<string, number> }).timings;
    expectTimingsWithCommit(timings);
    expect(log.body.log.timings.committing).toBeUndefined();
    expect(timings.total).toBeGreaterThanOrEqual(log.body.log.timings.total);
    expect((await getJob(accepted.body.id)).body).toEqual(last.data);
    const listed = await listJobs({ state: 'committed', endpoint: 'ead' });
    expect(listed.body.items.map((job: { id: string }) => job.id)).toContain(accepted.body.id);

    // A finished job's stream is its outcome alone.
    const again = await jobEvents(app.server, accepted.body.id, app.importToken);
    expect(again.events).toEqual([{ event: 'outcome', data: last.data }]);
  });

  it('shows the job while it runs, and answers reads while it is held mid-write', async () => {
    await app.addRepository('rb');
    const hold = holdNextImport(app.app);
    const accepted = await postEad('rb', eadOf('fb', 400));
    expect(accepted.status).toBe(202);
    expect(await hold.reached).toBe(accepted.body.id);

    const running = (await getJob(accepted.body.id)).body;
    expect(running).toMatchObject({ state: 'running', phase: 'writing', log: null, finished: null });
    expect(running.progress.items).toBeGreaterThanOrEqual(100);
    expect(running.progress.created).toBeGreaterThanOrEqual(100);
    expect(running.progress.sources).toEqual({ done: 0, total: 1 });
    expect(running.elapsedSeconds).toBeGreaterThan(0);
    const listed = await listJobs({ state: 'running' }, opsToken);
    expect(listed.body.items.map((job: { id: string }) => job.id)).toEqual([accepted.body.id]);

    // The import holds the store's writer, in its own thread: reads are answered, and see none of it.
    const portal = await request(app.server).get('/api/v1/rb').set('Authorization', `Bearer ${portalToken}`);
    expect(portal.status).toBe(200);
    expect((await request(app.server).get('/health')).status).toBe(200);
    expect(await unitsIn('rb')).toBe(0);

    hold.release();
    const { events } = await jobEvents(app.server, accepted.body.id, app.importToken);
    expect(events.at(-1)!.data).toMatchObject({ state: 'committed', log: { created: 401 } });
    expect(await unitsIn('rb')).toBe(401);
  });

  it('answers an import refused while another writes at once, and stores its log once that one ends', async () => {
    await app.addRepository('rr');
    const hold = holdNextImport(app.app);
    const accepted = await postEad('rr', eadOf('fr', 200));
    await hold.reached;
    const failedLogs = async () =>
      (
        await request(app.server)
          .get('/import/logs')
          .query({ scope: 'rr-nowhere', outcome: 'failed' })
          .set('Authorization', `Bearer ${opsToken}`)
      ).body.items as { error: { status: number } }[];

    const refused = await app
      .post('ead', { scope: 'rr-nowhere', commit: 'true' })
      .set('Content-Type', 'application/xml')
      .send(eadOf('fx', 1));
    expect(refused.status).toBe(404);
    expect(refused.body.details).toContain('rr-nowhere');
    // Answered while the other import still holds the store's writer: its log waits for it.
    expect((await getJob(accepted.body.id)).body).toMatchObject({ state: 'running' });
    expect(await failedLogs()).toEqual([]);

    hold.release();
    const { events } = await jobEvents(app.server, accepted.body.id, app.importToken);
    expect(events.at(-1)!.data).toMatchObject({ state: 'committed' });
    const [log] = await until('the refused import stored', failedLogs, (logs) => logs.length === 1);
    expect(log.error.status).toBe(404);
  });

  it('cancels a running import: rolled back, nothing written, its stored log says cancelled', async () => {
    await app.addRepository('rc');
    const hold = holdNextImport(app.app);
    const accepted = await postEad('rc', eadOf('fc', 300));
    await hold.reached;

    const cancelled = await request(app.server)
      .delete(`/import/jobs/${accepted.body.id}`)
      .set('Authorization', `Bearer ${app.importToken}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', error: { status: 409 } });
    expect(await unitsIn('rc')).toBe(0);
    const stored = await request(app.server)
      .get(`/import/logs/${cancelled.body.event as string}`)
      .set('Authorization', `Bearer ${opsToken}`);
    expect(stored.body).toMatchObject({ outcome: 'cancelled', touched: [], error: { status: 409 } });

    const twice = await request(app.server)
      .delete(`/import/jobs/${accepted.body.id}`)
      .set('Authorization', `Bearer ${app.importToken}`);
    expect(twice.status).toBe(409);

    // The worker goes on with the next import.
    const next = await postEad('rc', eadOf('fc', 3));
    const { events } = await jobEvents(app.server, next.body.id, app.importToken);
    expect(events.at(-1)!.data).toMatchObject({ state: 'committed', log: { created: 4 } });
  });

  it('answers without Prefer as before (201, the log), as a job all the same', async () => {
    await app.addRepository('rd');
    const answer = await app
      .post('ead', { scope: 'rd', tag: 'dry.xml' })
      .set('Content-Type', 'application/xml')
      .send(eadOf('fd', 5));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ created: 6, event: null });
    expect(answer.body.created_keys['dry.xml']).toHaveLength(6);
    const [job] = (await listJobs({ endpoint: 'ead', state: 'rolled-back' })).body.items;
    expect(job).toMatchObject({ scope: 'rd', commit: false, log: { created: 6, event: null } });
    // A dry run's `committing` is its rollback.
    expectTimingsWithCommit(job.log.timings);
    expect(await unitsIn('rd')).toBe(0);
  });

  it('fails a job whose input is bad, with the error where it is', async () => {
    await app.addRepository('re');
    const accepted = await postEad('re', '<ead><archdesc><did><unitid>x</unitid></did>');
    const { events } = await jobEvents(app.server, accepted.body.id, app.importToken);
    expect(events.at(-1)!.data).toMatchObject({ state: 'failed', error: { status: 400 } });
  });

  it('shows an import token the jobs of its user only; ops sees all; portal none', async () => {
    const other = await app.user();
    const otherToken = await app.token('import', other);
    const [mine] = (await listJobs()).body.items;
    expect(mine.user).toBe(app.userId);
    expect((await getJob(mine.id, otherToken)).status).toBe(404);
    expect((await listJobs({}, otherToken)).body.items).toEqual([]);
    const cancel = await request(app.server)
      .delete(`/import/jobs/${mine.id}`)
      .set('Authorization', `Bearer ${otherToken}`);
    expect(cancel.status).toBe(404);
    expect((await jobEvents(app.server, mine.id, otherToken)).status).toBe(404);
    expect((await getJob(mine.id, opsToken)).body.id).toBe(mine.id);
    expect((await getJob(mine.id, portalToken)).status).toBe(403);
    expect((await request(app.server).get('/import/jobs')).status).toBe(401);
    expect((await listJobs({ state: 'done' })).status).toBe(400);
  });

  it('documents the job endpoints and the 202 answer in the OpenAPI document', async () => {
    const { body } = await request(app.server).get('/openapi.json');
    const importOperation = body.paths['/import/{format}'].post;
    expect(Object.keys(importOperation.responses)).toEqual(expect.arrayContaining(['201', '202', '409']));
    expect(importOperation.parameters.map((parameter: { name: string }) => parameter.name)).toContain(
      'Prefer',
    );
    const list = body.paths['/import/jobs'].get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['state', 'user', 'endpoint']),
    );
    expect(body.paths['/import/jobs/{id}'].get.responses['200']).toBeDefined();
    expect(body.paths['/import/jobs/{id}'].delete.responses['200']).toBeDefined();
    expect(body.paths['/import/jobs/{id}/events'].get.responses['200'].content).toHaveProperty(
      'text/event-stream',
    );
    expect(body.components.schemas.ImportLogSummaryDto.properties.timings).toBeDefined();
    expect(Object.keys(body.components.schemas.ImportTimingsDto.properties)).toEqual([
      ...IMPORT_PHASES,
      'total',
    ]);
    expect(body.components.schemas.ImportJobDto.properties.state.enum).toEqual([
      'queued',
      'running',
      'committed',
      'rolled-back',
      'failed',
      'cancelled',
    ]);
  });
});
