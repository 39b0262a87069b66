import { once } from 'node:events';
import http from 'node:http';
import request from 'supertest';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { eadOf } from './support/job-events';
import { until } from './support/polling';
import { ServiceProcess, startServiceFromSource, untilHealthy } from './support/service-process';
import { TestApp, createTestApp } from './support/test-app';

/** What the tests of a job `id` look at: its state and phase. */
interface JobState {
  state: string;
  phase: string | null;
}

/**
 * Starts the service from source, runs `work` on it once it is healthy, then stops it: killed (a
 * process that stops without a word, as on a crash or a power cut), or asked to (SIGTERM).
 */
async function withService(
  env: Record<string, string>,
  end: 'kill' | 'stop',
  work: (service: ServiceProcess) => Promise<void>,
): Promise<void> {
  const service = await startServiceFromSource(env);
  try {
    await untilHealthy(service);
    await work(service);
  } finally {
    if (end === 'stop') await service.stop();
    else {
      service.process.kill('SIGKILL');
      await once(service.process, 'exit');
    }
  }
}

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

  /** A user with an import token, an ops token, and a repository `scope` to import into. */
  async function importer(scope: string) {
    const user = await testApp.user();
    const importToken = await testApp.token('import', user);
    const opsToken = await testApp.token('ops');
    const repository: Bundle = { id: scope, type: 'Repository', data: { identifier: scope }, relations: {} };
    await testApp.store.write((tx) => tx.putItems([{ bundle: repository, hash: itemHash(repository) }]));
    return {
      importToken,
      /** Posts an EAD of `units` units below `scope`, answered at once (`Prefer: respond-async`). */
      post: (service: ServiceProcess, fonds: string, units: number) =>
        request(`http://127.0.0.1:${service.port}`)
          .post('/import/ead')
          .query({ scope, commit: 'true', tag: fonds })
          .set('Authorization', `Bearer ${importToken}`)
          .set('X-User', user)
          .set('Prefer', 'respond-async')
          .set('Content-Type', 'application/xml')
          .send(eadOf(fonds, units)),
      job: async (service: ServiceProcess, id: string, token = opsToken) =>
        (
          await request(`http://127.0.0.1:${service.port}`)
            .get(`/import/jobs/${id}`)
            .set('Authorization', `Bearer ${token}`)
        ).body as JobState & Record<string, unknown>,
      /** Starts an import whose body never ends: the job stays receiving. */
      receiving: (service: ServiceProcess, fonds: string) => {
        const outgoing = http.request({
          host: '127.0.0.1',
          port: service.port,
          method: 'POST',
          path: `/import/ead?scope=${scope}&commit=true&tag=${fonds}`,
          headers: {
            Authorization: `Bearer ${importToken}`,
            'X-User': user,
            Prefer: 'respond-async',
            'Content-Type': 'application/xml',
            'Transfer-Encoding': 'chunked',
          },
        });
        outgoing.on('error', () => undefined);
        outgoing.write(eadOf(fonds, 5).slice(0, 200));
        return outgoing;
      },
      log: async (service: ServiceProcess, id: string) =>
        (
          await request(`http://127.0.0.1:${service.port}`)
            .get(`/import/logs/${id}`)
            .set('Authorization', `Bearer ${opsToken}`)
        ).body as Record<string, unknown>,
      list: async (service: ServiceProcess, query: Record<string, string>) =>
        (
          await request(`http://127.0.0.1:${service.port}`)
            .get('/import/jobs')
            .query(query)
            .set('Authorization', `Bearer ${opsToken}`)
        ).body.items as { id: string }[],
      stored: async () =>
        (
          await testApp.store.read((tx) =>
            tx.search({ scope: { id: scope, depth: 'descendants' }, offset: 0, limit: 1 }),
          )
        ).total,
    };
  }

  it('reports the job failed (interrupted) after the restart, with its log, its progress and nothing of it stored', async () => {
    // Two starts of the service from source, each with its import worker.
    const { importToken, post, receiving, job, log, list, stored } = await importer('r1');

    let id = '';
    let receivingId = '';
    let reached = 0;
    await withService(env, 'kill', async (service) => {
      const accepted = await post(service, 'killed', 50_000);
      expect(accepted.status).toBe(202);
      id = accepted.body.id;
      // Until its items are being written, inside its transaction.
      for (;;) {
        const running = await job(service, id);
        expect(running).toMatchObject({ state: expect.stringMatching(/^(queued|running)$/) });
        if (running.phase === 'writing') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Meanwhile another import's body arrives (nothing reaches the store while the first writes).
      receiving(service, 'arriving');
      const arriving = await until(
        'the second job',
        () => list(service, { state: 'queued' }),
        (jobs) => jobs.length === 1,
      );
      receivingId = arriving[0].id;
      expect(await job(service, receivingId)).toMatchObject({ phase: 'receiving' });
      // The first import's progress as its journal has it, a second later: then the process dies.
      const before = (await job(service, id)) as unknown as { progress: { items: number } };
      await new Promise((resolve) => setTimeout(resolve, 1500));
      reached = before.progress.items;
      expect(reached).toBeGreaterThan(0);
    });

    await withService(env, 'stop', async (service) => {
      const failed = await job(service, id, importToken);
      expect(failed).toMatchObject({
        id,
        state: 'failed',
        phase: null,
        error: { status: 500, details: expect.stringContaining('Interrupted') },
        event: expect.any(String),
      });
      expect((failed.progress as { items: number }).items).toBeGreaterThanOrEqual(reached);
      expect(await log(service, failed.event as string)).toMatchObject({
        id: failed.event,
        outcome: 'interrupted',
        endpoint: 'ead',
        error: { details: expect.stringContaining('Interrupted') },
      });
      const arrived = await job(service, receivingId, importToken);
      expect(arrived).toMatchObject({ id: receivingId, state: 'failed', event: expect.any(String) });
      expect(await log(service, arrived.event as string)).toMatchObject({ outcome: 'interrupted' });
      expect((await list(service, { state: 'failed' })).map((each) => each.id).sort()).toEqual(
        [id, receivingId].sort(),
      );
    });
    expect(await stored()).toBe(0);
  }, 180_000);

  it('reports jobs that were queued behind it failed (interrupted) too, and the one before it committed', async () => {
    const { importToken, post, job, stored } = await importer('r2');

    let ids: string[] = [];
    await withService(env, 'kill', async (service) => {
      // The first takes the writer; the second and third wait for it, and are stored when it ends.
      const first = await post(service, 'first', 30_000);
      const second = await post(service, 'second', 50_000);
      const third = await post(service, 'third', 5);
      ids = [first, second, third].map(({ body }) => body.id as string);
      expect(await job(service, ids[0])).toMatchObject({
        state: expect.stringMatching(/^(running|committed)$/),
      });
      expect(await job(service, ids[2])).toMatchObject({ state: 'queued' });
      // Until the second is being written, the third still queued: then the process dies.
      for (;;) {
        const [firstJob, secondJob, thirdJob] = await Promise.all(ids.map((id) => job(service, id)));
        expect(thirdJob.state).toBe('queued');
        if (firstJob.state === 'committed' && secondJob.phase === 'writing') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });

    await withService(env, 'stop', async (service) => {
      const [first, ...interrupted] = await Promise.all(ids.map((id) => job(service, id, importToken)));
      expect(first).toMatchObject({ state: 'committed', log: { created: 30_001 } });
      for (const each of interrupted) {
        expect(each).toMatchObject({
          state: 'failed',
          error: { status: 500, details: expect.stringContaining('Interrupted') },
        });
      }
    });
    expect(await stored()).toBe(30_001);
  }, 240_000);
});
