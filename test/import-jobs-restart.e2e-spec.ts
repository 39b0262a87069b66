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
 * (interrupted) by the service started again, and the store holds nothing of its import.
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
});
