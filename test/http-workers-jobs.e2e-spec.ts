import http from 'node:http';
import { ImportJobRecords } from '../src/import-jobs/import-job-records';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { eadOf, parseEvents } from './support/job-events';
import { until } from './support/polling';
import { ServiceProcess, startServiceFromSource, untilHealthy, untilLogged } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';

/** Two workers and a primary, each compiling the sources as it starts (see http-workers.e2e-spec.ts). */
const STARTING_MS = 150_000;
const TEST_MS = STARTING_MS + 120_000;

interface Answer {
  status: number;
  text: string;
  /** The id the request was sent with, which its log line names. */
  requestId: string;
}

let lastRequest = 0;

/** Longer than any answer here takes: a request still unanswered then fails, naming itself. */
const ANSWER_MS = 60_000;

/**
 * A request on a connection of its own (the cluster hands each connection to one worker in turn),
 * with an id of its own, to find out from the logs which worker answered.
 */
function requestOnce(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const requestId = `jobs-test-${++lastRequest}`;
  return new Promise((resolve, reject) => {
    const sent = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        headers: { ...headers, Connection: 'close', 'X-Request-Id': requestId },
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, requestId }));
      },
    );
    sent.setTimeout(ANSWER_MS, () =>
      sent.destroy(new Error(`${method} ${urlPath} (${requestId}): no answer in ${ANSWER_MS} ms`)),
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/**
 * With `HTTP_WORKERS=2`, every worker serves every job live: the job document, the list and the
 * event stream show the progress of an import the other worker runs, and a cancel reaching the
 * worker that does not run it is carried out by the one that does.
 */
describe('HTTP_WORKERS: import jobs served live by every worker', () => {
  let testApp: TestApp;
  let service: ServiceProcess;
  let records: ImportJobRecords;
  let user: string;
  let importToken: string;
  let opsToken: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    records = new ImportJobRecords(testApp.store);
    user = await testApp.user();
    importToken = await testApp.token('import', user);
    opsToken = await testApp.token('ops');
    const repository: Bundle = { id: 'rw', type: 'Repository', data: { identifier: 'rw' }, relations: {} };
    await testApp.store.write((tx) => tx.putItems([{ bundle: repository, hash: itemHash(repository) }]));
    // At debug: the request lines that say which worker answered include the polled paths' (a job,
    // the jobs list, health), which are logged at debug.
    service = await startServiceFromSource({ ...testApp.graphEnv, HTTP_WORKERS: '2', LOG_LEVEL: 'debug' });
    await untilHealthy(service, STARTING_MS);
    await untilLogged(service, 'Every HTTP worker is ready', 1, STARTING_MS);
  }, STARTING_MS + 10_000);
  afterAll(async () => {
    await service?.stop();
    await testApp.close();
  });

  const get = (urlPath: string) =>
    requestOnce(service.port, 'GET', urlPath, { Authorization: `Bearer ${opsToken}` });
  /** The pid of the worker that answered a request, from its log line. */
  const answeredBy = (answer: Answer) =>
    until(
      `the log line of ${answer.requestId}`,
      () =>
        service
          .logs()
          .map((line) => JSON.parse(line) as { pid: number; req?: { id: string } })
          .find((line) => line.req?.id === answer.requestId)?.pid,
      (pid) => pid !== undefined,
    ) as Promise<number>;
  const startImport = async (fonds: string, units: number) => {
    const accepted = await requestOnce(
      service.port,
      'POST',
      `/import/ead?scope=rw&commit=true&tag=${fonds}`,
      {
        Authorization: `Bearer ${importToken}`,
        'X-User': user,
        Prefer: 'respond-async',
        'Content-Type': 'application/xml',
      },
      eadOf(fonds, units),
    );
    expect(accepted.status).toBe(202);
    const id = (JSON.parse(accepted.text) as { id: string }).id;
    // The worker that runs it: the one that stored it as running.
    const stored = await until(
      'the job stored as running',
      () => records.get(id),
      (job) => job !== undefined,
    );
    return { id, owner: stored!.pid };
  };

  it(
    'serves the live job, the list and the events from the worker that does not run it',
    async () => {
      const { id, owner } = await startImport('fw', 30_000);

      // Answers from both workers while it is written: the other's show progress the store never had.
      const fromOther: Record<string, unknown>[] = [];
      const streams: Promise<Answer>[] = [];
      await until(
        'live answers from the worker that does not run the job',
        async () => {
          const answer = await get(`/import/jobs/${id}`);
          const job = JSON.parse(answer.text) as { phase: string; progress: { items: number } };
          const pid = await answeredBy(answer);
          if (pid !== owner && job.phase === 'writing') fromOther.push(job);
          // The cluster hands connections to the workers in turn: after one the owner took, the other's.
          else if (pid === owner && streams.length < 2) streams.push(get(`/import/jobs/${id}/events`));
          return fromOther.length >= 2 && streams.length >= 2;
        },
        (done) => done,
        60_000,
      );
      expect(fromOther[0]).toMatchObject({ id, state: 'running', phase: 'writing' });
      expect((fromOther[1] as { progress: { items: number } }).progress.items).toBeGreaterThan(0);
      expect((await records.get(id))!.document).toMatchObject({ state: 'running', progress: { items: 0 } });

      const lists = await Promise.all([1, 2].map(() => get('/import/jobs?state=running')));
      const pids = await Promise.all(lists.map(answeredBy));
      expect(new Set(pids).size).toBe(2);
      for (const list of lists) {
        const [job] = (JSON.parse(list.text) as { items: { id: string; progress: { items: number } }[] })
          .items;
        expect(job.id).toBe(id);
        expect(job.progress.items).toBeGreaterThan(0);
      }

      // Every stream, wherever it was served, shows progress and ends with the outcome.
      const ended = await Promise.all(streams);
      const streamPids = await Promise.all(ended.map(answeredBy));
      expect(streamPids.every((pid) => pid !== owner)).toBe(true);
      for (const stream of ended) {
        const events = parseEvents(stream.text);
        expect(events.at(-1)).toMatchObject({ event: 'outcome', data: { id, state: 'committed' } });
        expect(events.some(({ event, data }) => event === 'progress' && data.phase === 'writing')).toBe(true);
      }
    },
    TEST_MS,
  );

  it(
    'cancels a job from the worker that does not run it: the one that does rolls it back',
    async () => {
      const { id, owner } = await startImport('fc', 30_000);
      await until(
        'the job being written',
        async () => JSON.parse((await get(`/import/jobs/${id}`)).text) as { phase: string },
        (job) => job.phase === 'writing',
        60_000,
      );
      // As above: the connection after one the owner took goes to the other worker.
      await until(
        'a connection handed to the worker that runs the job',
        async () => answeredBy(await get('/health')),
        (pid) => pid === owner,
      );
      const cancelled = await requestOnce(service.port, 'DELETE', `/import/jobs/${id}`, {
        Authorization: `Bearer ${importToken}`,
      });
      expect(await answeredBy(cancelled)).not.toBe(owner);
      expect(cancelled.status).toBe(200);
      expect(JSON.parse(cancelled.text)).toMatchObject({ id, state: 'cancelled', error: { status: 409 } });
      const again = await requestOnce(service.port, 'DELETE', `/import/jobs/${id}`, {
        Authorization: `Bearer ${importToken}`,
      });
      expect(again.status).toBe(409);
      const stored = await testApp.store.read((tx) =>
        tx.search({ scope: { id: 'rw', depth: 'descendants' }, offset: 0, limit: 1 }),
      );
      // The first test's import alone.
      expect(stored.total).toBe(30_001);
    },
    TEST_MS,
  );

  it(
    'keeps a job of one worker queued while the other runs an import, then runs it',
    async () => {
      const first = await startImport('fq', 20_000);
      const job = async (id: string) =>
        JSON.parse((await get(`/import/jobs/${id}`)).text) as { state: string; phase: string | null };
      await until(
        'the first job being written',
        () => job(first.id),
        ({ phase }) => phase === 'writing',
        60_000,
      );
      await until(
        'a connection handed to the worker that runs the first job',
        async () => answeredBy(await get('/health')),
        (pid) => pid === first.owner,
      );
      const accepted = await requestOnce(
        service.port,
        'POST',
        '/import/ead?scope=rw&commit=true&tag=fq2',
        {
          Authorization: `Bearer ${importToken}`,
          'X-User': user,
          Prefer: 'respond-async',
          'Content-Type': 'application/xml',
        },
        eadOf('fq2', 5),
      );
      expect(await answeredBy(accepted)).not.toBe(first.owner);
      const second = (JSON.parse(accepted.text) as { id: string }).id;
      // While the first runs, the second waits in its own worker, queued (not running, which it
      // would be only to wait for the store's writer). Read in this order (concurrent reads may
      // reach the workers in either order), a second job that no longer waits finds the first ended.
      const deadline = Date.now() + 120_000;
      for (;;) {
        const secondJob = await job(second);
        const firstJob = await job(first.id);
        if (secondJob.state !== 'queued') expect(firstJob.state).not.toMatch(/^(queued|running)$/);
        if (firstJob.state !== 'running') break;
        if (Date.now() > deadline) {
          throw new Error(
            `The first job still runs: ${JSON.stringify(firstJob)}; the second: ${JSON.stringify(secondJob)}; ` +
              `the service's last log lines:\n${service.logs().slice(-40).join('\n')}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const ended = await until(
        'the second job ended',
        () => job(second),
        ({ state }) => state !== 'queued' && state !== 'running',
        60_000,
      );
      expect(ended).toMatchObject({ state: 'committed', log: { created: 6 } });
      expect((await records.get(second))!.pid).not.toBe(first.owner);
    },
    TEST_MS,
  );

  it(
    "bounds one user's imports across the workers: the fifth held at once is 429, whichever worker takes it",
    async () => {
      const job = async (id: string) =>
        JSON.parse((await get(`/import/jobs/${id}`)).text) as { state: string; phase: string | null };
      const first = await startImport('fb', 20_000);
      await until(
        'the first job being written',
        () => job(first.id),
        ({ phase }) => phase === 'writing',
        60_000,
      );
      // Each on a connection of its own, which the cluster hands to the workers in turn.
      const answers: Answer[] = [];
      for (let index = 0; index < 4; index++) {
        answers.push(
          await requestOnce(
            service.port,
            'POST',
            `/import/ead?scope=rw&commit=true&tag=fb${index}`,
            {
              Authorization: `Bearer ${importToken}`,
              'X-User': user,
              Prefer: 'respond-async',
              'Content-Type': 'application/xml',
            },
            eadOf(`fb${index}`, 3),
          ),
        );
      }
      // IMPORT_QUEUE_MAX_JOBS_PER_USER is 4 by default: the first import and three more.
      expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 429]);
      expect(JSON.parse(answers[3].text).details).toContain('IMPORT_QUEUE_MAX_JOBS_PER_USER (4)');
      expect(new Set(await Promise.all(answers.map(answeredBy))).size).toBe(2);

      const queued = answers.slice(0, 3).map((answer) => (JSON.parse(answer.text) as { id: string }).id);
      for (const id of [first.id, ...queued]) {
        await until(
          `job ${id} ended`,
          () => job(id),
          ({ state }) => state !== 'queued' && state !== 'running',
          120_000,
        );
      }
    },
    TEST_MS,
  );
});
