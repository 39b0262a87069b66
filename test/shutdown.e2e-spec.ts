import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import { writeEad } from '../bench/ead-generator';
import { CLOSE_MARGIN_MS } from '../src/shutdown/graceful-shutdown';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { getOnce, ServiceProcess, startServiceFromSource, untilHealthy } from './support/service-process';

/** Large enough that committing it takes several times the grace period, even on a fast machine. */
const UNITS = 30_000;
const GRACE_MS = 1_000;

/** Posts `file` to `/import/ead` as the test user; resolves once the body is sent, and with the answer. */
function postEad(
  t: ImportTestApp,
  service: ServiceProcess,
  file: string,
): {
  sent: Promise<void>;
  answer: Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>;
} {
  const req = http.request({
    host: '127.0.0.1',
    port: service.port,
    method: 'POST',
    path: '/import/ead?scope=r1&commit=true&tag=large.xml',
    headers: {
      Authorization: `Bearer ${t.importToken}`,
      'X-User': t.userId,
      'X-Request-Id': 'large-import-1',
      'Content-Type': 'application/xml',
    },
  });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
    (resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on('error', reject);
    },
  );
  const sent = new Promise<void>((resolve, reject) => {
    createReadStream(file).on('error', reject).pipe(req).on('finish', resolve);
  });
  return { sent, answer };
}

/** Waits until the service's one import job is writing (its items are being stored). */
async function untilWriting(service: ServiceProcess, opsToken: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const jobs = JSON.parse((await getOnce(service.port, '/import/jobs?state=running', opsToken)).text) as {
      items: { phase: string | null }[];
    };
    if (jobs.items.some((job) => job.phase === 'writing')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The import never started writing');
}

describe('SIGTERM during a large import: bounded shutdown', () => {
  let t: ImportTestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    // The store, a repository, users and tokens made here; the service opens the same file.
    t = await createImportTestApp();
    env = {
      ...t.graphEnv,
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    };
  });
  afterAll(() => t.close());

  it('cancels the import after the grace period, exits 0 in time, and leaves none of it but its log', async () => {
    const file = path.join(t.root, 'large.xml');
    await writeEad(file, { units: UNITS, fanOut: 10, depth: 5 });
    const service = await startServiceFromSource(env);
    await untilHealthy(service);
    const { sent, answer } = postEad(t, service, file);
    await sent;
    // Into its transaction: the job says so once its first items are written.
    await untilWriting(service, await t.token('ops'));

    const signalled = Date.now();
    service.process.kill('SIGTERM');
    const [code] = (await once(service.process, 'exit')) as [number | null];
    const took = Date.now() - signalled;

    expect(code).toBe(0);
    expect(took).toBeGreaterThanOrEqual(GRACE_MS);
    expect(took).toBeLessThan(GRACE_MS + CLOSE_MARGIN_MS);
    const answered = await answer;
    expect(answered.status).toBe(503);
    expect(JSON.parse(answered.text)).toEqual({
      status: 503,
      error: 'Service Unavailable',
      details: 'The import was interrupted: the service is shutting down',
      requestId: 'large-import-1',
    });
    expect(service.logs().some((line) => line.includes('"cancelled":1'))).toBe(true);

    // Restarted, the service holds none of the import, and its log says it was interrupted.
    const restarted = await startServiceFromSource(env);
    try {
      await untilHealthy(restarted);
      const opsToken = await t.token('ops');
      const logs = await getOnce(restarted.port, '/import/logs?endpoint=ead', opsToken);
      expect(JSON.parse(logs.text)).toMatchObject({
        total: 1,
        items: [
          {
            outcome: 'interrupted',
            requestId: 'large-import-1',
            tags: ['large.xml'],
            touchedCount: 0,
            error: { status: 503, details: 'The import was interrupted: the service is shutting down' },
          },
        ],
      });
      const search = await getOnce(restarted.port, '/api/v1/r1/search', await t.token('portal'));
      expect(JSON.parse(search.text).meta.total).toBe(0);
    } finally {
      await restarted.stop();
    }
  }, 120_000);
});
