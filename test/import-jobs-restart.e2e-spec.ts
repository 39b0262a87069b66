import { once } from 'node:events';
import request from 'supertest';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { eadOf } from './support/job-events';
import { ServiceProcess, spawnService, untilHealthy } from './support/service-process';
import { TestApp, createTestApp } from './support/test-app';

/** `src/main.ts` from source, transpiled by SWC (fast to start), with `env` added. */
const startService = (env: Record<string, string>) =>
  spawnService(['-r', 'ts-node/register/transpile-only', 'src/main.ts'], { TS_NODE_SWC: 'true', ...env });

/**
 * A job running when the service stopped (killed: no shutdown of its own) is reported failed
 * (interrupted) by the service started again, and the store holds nothing of its import; so are
 * jobs that were queued behind it.
 */
describe('import jobs across a restart', () => {
  let testApp: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    // The store, a user and tokens made here; the service opens the same file.
    testApp = await createTestApp();
    env = { ...testApp.graphEnv };
  });
  afterAll(() => testApp.close());

  it('reports the job failed (interrupted) after the restart, with nothing of it stored', async () => {
    // Two starts of the service from source, each with its import worker.
    const user = await testApp.user();
    const importToken = await testApp.token('import', user);
    const opsToken = await testApp.token('ops');
    const repository: Bundle = { id: 'r1', type: 'Repository', data: { identifier: 'r1' }, relations: {} };
    await testApp.store.write((tx) => tx.putItems([{ bundle: repository, hash: itemHash(repository) }]));
    const body = eadOf('killed', 50_000);

    let service: ServiceProcess = await startService(env);
    let id: string;
    try {
      await untilHealthy(service);
      const url = `http://127.0.0.1:${service.port}`;
      const accepted = await request(url)
        .post('/import/ead')
        .query({ scope: 'r1', commit: 'true' })
        .set('Authorization', `Bearer ${importToken}`)
        .set('X-User', user)
        .set('Prefer', 'respond-async')
        .set('Content-Type', 'application/xml')
        .send(body);
      expect(accepted.status).toBe(202);
      id = accepted.body.id;
      // Until its items are being written, inside its transaction: then the process dies.
      for (;;) {
        const job = await request(url).get(`/import/jobs/${id}`).set('Authorization', `Bearer ${opsToken}`);
        expect(job.body).toMatchObject({ state: expect.stringMatching(/^(queued|running)$/) });
        if (job.body.phase === 'writing') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      // Killed: a process that stops without a word, as on a crash or a power cut.
      service.process.kill('SIGKILL');
      await once(service.process, 'exit');
    }

    service = await startService(env);
    try {
      await untilHealthy(service);
      const url = `http://127.0.0.1:${service.port}`;
      const job = await request(url).get(`/import/jobs/${id}`).set('Authorization', `Bearer ${importToken}`);
      expect(job.status).toBe(200);
      expect(job.body).toMatchObject({
        id,
        state: 'failed',
        phase: null,
        error: { status: 500, details: expect.stringContaining('Interrupted') },
      });
      const failed = await request(url)
        .get('/import/jobs')
        .query({ state: 'failed' })
        .set('Authorization', `Bearer ${opsToken}`);
      expect(failed.body.items.map((each: { id: string }) => each.id)).toEqual([id]);
    } finally {
      await service.stop();
    }
    const stored = await testApp.store.read((tx) =>
      tx.search({ scope: { id: 'r1', depth: 'descendants' }, offset: 0, limit: 1 }),
    );
    expect(stored.total).toBe(0);
  }, 180_000);

  it('reports jobs that were queued behind it failed (interrupted) too, and the one before it committed', async () => {
    const user = await testApp.user();
    const importToken = await testApp.token('import', user);
    const opsToken = await testApp.token('ops');
    const repository: Bundle = { id: 'r2', type: 'Repository', data: { identifier: 'r2' }, relations: {} };
    await testApp.store.write((tx) => tx.putItems([{ bundle: repository, hash: itemHash(repository) }]));

    let service: ServiceProcess = await startService(env);
    let ids: string[];
    try {
      await untilHealthy(service);
      const url = `http://127.0.0.1:${service.port}`;
      const post = (fonds: string, units: number) =>
        request(url)
          .post('/import/ead')
          .query({ scope: 'r2', commit: 'true', tag: fonds })
          .set('Authorization', `Bearer ${importToken}`)
          .set('X-User', user)
          .set('Prefer', 'respond-async')
          .set('Content-Type', 'application/xml')
          .send(eadOf(fonds, units));
      const job = async (id: string) =>
        (await request(url).get(`/import/jobs/${id}`).set('Authorization', `Bearer ${opsToken}`)).body as {
          state: string;
          phase: string | null;
        };
      // The first takes the writer; the second and third wait for it, and are stored when it ends.
      const first = await post('first', 30_000);
      const second = await post('second', 50_000);
      const third = await post('third', 5);
      ids = [first, second, third].map(({ body }) => body.id as string);
      expect(await job(ids[0])).toMatchObject({ state: expect.stringMatching(/^(running|committed)$/) });
      expect(await job(ids[2])).toMatchObject({ state: 'queued' });
      // Until the second is being written, the third still queued: then the process dies.
      for (;;) {
        const [firstJob, secondJob, thirdJob] = await Promise.all(ids.map(job));
        expect(thirdJob.state).toBe('queued');
        if (firstJob.state === 'committed' && secondJob.phase === 'writing') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      service.process.kill('SIGKILL');
      await once(service.process, 'exit');
    }

    service = await startService(env);
    try {
      await untilHealthy(service);
      const url = `http://127.0.0.1:${service.port}`;
      const states = await Promise.all(
        ids.map(
          async (id) =>
            (await request(url).get(`/import/jobs/${id}`).set('Authorization', `Bearer ${importToken}`)).body,
        ),
      );
      expect(states[0]).toMatchObject({ state: 'committed', log: { created: 30_001 } });
      for (const interrupted of states.slice(1)) {
        expect(interrupted).toMatchObject({
          state: 'failed',
          error: { status: 500, details: expect.stringContaining('Interrupted') },
        });
      }
    } finally {
      await service.stop();
    }
    const stored = await testApp.store.read((tx) =>
      tx.search({ scope: { id: 'r2', depth: 'descendants' }, offset: 0, limit: 1 }),
    );
    expect(stored.total).toBe(30_001);
  }, 240_000);
});
