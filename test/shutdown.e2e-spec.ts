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
/** A finding aid whose commit is under way long enough for SIGTERM to come in its middle. */
const COMMIT_UNITS = 20_000;
/** SIGTERM ends the process within SHUTDOWN_GRACE_MS (0 here) plus this, mid-commit included. */
const BOUND_MS = 2_000;

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
    // Tagged with the file's name, so that each test finds its own import's log.
    path: `/import/ead?scope=r1&commit=true&tag=${encodeURIComponent(path.basename(file))}`,
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

/** Waits until the service's one import job is in `phase` (writing: its items are being stored). */
async function untilPhase(
  service: ServiceProcess,
  opsToken: string,
  phase: 'writing' | 'committing',
  pollMs = 100,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const jobs = JSON.parse((await getOnce(service.port, '/import/jobs?state=running', opsToken)).text) as {
      items: { phase: string | null }[];
    };
    if (jobs.items.some((job) => job.phase === phase)) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`The import never reached ${phase}`);
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
    await untilPhase(service, await t.token('ops'), 'writing');

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

  it('ends within SHUTDOWN_GRACE_MS plus 2 s when SIGTERM comes mid-commit, and leaves the import whole or not at all', async () => {
    const file = path.join(t.root, 'committing.xml');
    await writeEad(file, { units: COMMIT_UNITS, fanOut: 10, depth: 5 });
    const service = await startServiceFromSource({ ...env, SHUTDOWN_GRACE_MS: '0' });
    await untilHealthy(service);
    const opsToken = await t.token('ops');
    const { sent, answer } = postEad(t, service, file);
    answer.catch(() => undefined);
    await sent;
    await untilPhase(service, opsToken, 'committing', 10);

    const signalled = Date.now();
    service.process.kill('SIGTERM');
    const [code] = (await once(service.process, 'exit')) as [number | null];
    const took = Date.now() - signalled;
    process.stdout.write(`SIGTERM mid-commit: exited ${code} after ${took} ms\n`);
    expect(took).toBeLessThan(BOUND_MS);
    expect(code).toBe(0);

    // Restarted: the import is there whole, its log succeeded, or not at all, its log interrupted.
    const restarted = await startServiceFromSource(env);
    try {
      await untilHealthy(restarted);
      const logs = JSON.parse(
        (await getOnce(restarted.port, '/import/logs?endpoint=ead', opsToken)).text,
      ) as {
        items: { outcome: string; tags: string[] }[];
      };
      const log = logs.items.find(
        (each) => each.tags.includes('committing.xml') || each.outcome !== 'succeeded',
      );
      const search = await getOnce(restarted.port, '/api/v1/r1/search?limit=1', await t.token('portal'));
      const total = JSON.parse(search.text).meta.total as number;
      process.stdout.write(`after the restart: log ${log?.outcome}, ${total} units at the top\n`);
      expect(log?.outcome === 'succeeded' ? total > 0 : total === 0).toBe(true);
    } finally {
      await restarted.stop();
    }
  }, 180_000);
});
