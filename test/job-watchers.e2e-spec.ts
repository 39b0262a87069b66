import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ImportJobsService } from '../src/import-jobs/import-jobs.service';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf } from './support/job-events';
import { until } from './support/polling';
import { holdNextImport } from './support/job-holds';

/**
 * Watchers beyond EventEmitter's default of 10 on one job: no MaxListenersExceededWarning, which
 * Node prints once an emitter has more listeners of one event than its maximum (0: none). The
 * warning goes to the real process, which a test's `process` does not hear: the job is asked.
 */
describe('many watchers of one job', () => {
  let t: ImportTestApp;
  let port: number;

  beforeAll(async () => {
    t = await createImportTestApp();
    t.server.listen(0, '127.0.0.1');
    await once(t.server, 'listening');
    port = (t.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  it('streams one job to 15 watchers, and prints no warning', async () => {
    const jobs = t.app.get(ImportJobsService);
    const hold = holdNextImport(t.app);
    const accepted = await t
      .post('ead', { scope: 'r1', commit: 'true' })
      .set('Content-Type', 'application/xml')
      .set('Prefer', 'respond-async')
      .send(eadOf('watched', 3))
      .expect(202);
    await hold.reached;
    const streams = Array.from({ length: 15 }, () => {
      const watcher = http.get({
        host: '127.0.0.1',
        port,
        path: `/import/jobs/${accepted.body.id}/events`,
        headers: { Authorization: `Bearer ${t.importToken}` },
      });
      return new Promise<string>((resolve, reject) => {
        watcher.on('error', reject);
        watcher.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          response.on('end', () => resolve(text));
        });
      });
    });
    // Every stream is open (its first progress event sent) before the job goes on.
    const job = jobs.liveJob(accepted.body.id as string, { role: 'ops' })!;
    await until(
      'every watcher',
      () => job.listenerCount('change'),
      (count) => count >= 15,
    );
    const most = job.getMaxListeners();
    expect(most === 0 || most >= job.listenerCount('change')).toBe(true);
    hold.release();
    for (const text of await Promise.all(streams)) expect(text).toContain('event: outcome');
  });
});
