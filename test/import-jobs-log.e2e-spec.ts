import { ImportJobsService } from '../src/import-jobs/import-jobs.service';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf, jobEvents } from './support/job-events';
import { until } from './support/polling';
import { holdNextImport } from './support/job-holds';

/** The app's structured log lines, as pino writes them. */
const logLines: string[] = [];
const logDestination = { write: (line: string) => void logLines.push(line) };

interface RunningLine {
  msg: string;
  jobId: string;
  endpoint: string;
  phase: string;
  items: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: number;
  bytesRead: number;
  bytesTotal: number;
  itemsPerSecond: number;
  elapsedSeconds: number;
}

const runningLines = (jobId: string): RunningLine[] =>
  logLines
    .map((line) => JSON.parse(line) as RunningLine)
    .filter((line) => line.msg === 'Import running' && line.jobId === jobId);

/**
 * Each running import's periodic log line (`Import running`), its interval set short
 * (`IMPORT_JOB_LOG_INTERVAL_MS`), read while the import is held mid-write.
 */
describe('import jobs: the periodic log line of a running import', () => {
  let app: ImportTestApp;
  let jobs: ImportJobsService;

  beforeAll(async () => {
    app = await createImportTestApp(
      { IMPORT_RUNNER: 'thread', LOG_LEVEL: 'info', IMPORT_JOB_LOG_INTERVAL_MS: '50' },
      { logDestination },
    );
    jobs = app.app.get(ImportJobsService);
  });
  afterAll(() => app.close());

  it('logs the job id, endpoint, phase, counts, bytes and rate of a held import, and nothing once it ends', async () => {
    await app.addRepository('rl');
    const body = eadOf('fl', 300);
    const hold = holdNextImport(app.app);
    const accepted = await app
      .post('ead', { scope: 'rl', commit: 'true', tag: 'fl.xml' })
      .set('Content-Type', 'application/xml')
      .set('Prefer', 'respond-async')
      .send(body);
    expect(accepted.status).toBe(202);
    const id = accepted.body.id as string;
    const acceptedAt = Date.now();
    expect(await hold.reached).toBe(id);
    const reachedAt = Date.now();
    // Lines written while it is held, two at least: the interval's, not one line at the start.
    const before = runningLines(id).length;
    const [line] = await until(
      'Import running lines',
      () => runningLines(id).slice(before),
      (lines) => lines.length >= 2,
    );
    const job = (await jobs.get(id, { role: 'ops' }))!;
    expect(line).toMatchObject({
      level: 30,
      context: 'ImportJobs',
      endpoint: 'ead',
      phase: 'writing',
      items: job.progress.items,
      created: job.progress.created,
      updated: 0,
      unchanged: 0,
      errors: 0,
      bytesRead: job.progress.bytes.read,
      bytesTotal: Buffer.byteLength(body),
    });
    expect(line.items).toBeGreaterThanOrEqual(100);
    expect(line.bytesRead).toBeGreaterThan(0);
    // Items over the time it has run: it had run at least from its 202 to its hold when the line
    // was written, and at most as long as it has now.
    expect(line.itemsPerSecond).toBeGreaterThanOrEqual(Math.floor(job.progress.items / job.elapsedSeconds));
    expect(line.itemsPerSecond).toBeLessThanOrEqual(
      Math.ceil(job.progress.items / Math.max((reachedAt - acceptedAt) / 1000, 1e-3)),
    );
    expect(line.elapsedSeconds).toBeLessThanOrEqual(Math.ceil(job.elapsedSeconds));

    hold.release();
    const { events } = await jobEvents(app.server, id, app.importToken);
    expect(events.at(-1)!.data).toMatchObject({ state: 'committed' });
    const logged = runningLines(id).length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runningLines(id)).toHaveLength(logged);
  });
});
