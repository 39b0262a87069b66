import { getOnce, startServiceFromSource, untilHealthy, untilLogged } from './support/service-process';
import { TestApp, createTestApp } from './support/test-app';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/**
 * Two workers and a primary, each compiling the sources as it starts: on a busy shared machine that
 * can take well over the default wait.
 */
const STARTING_MS = 150_000;
const TEST_MS = STARTING_MS + 60_000;

describe('HTTP_WORKERS: the service served by several processes', () => {
  let testApp: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    // The store and a token made here; the service opens the same file.
    testApp = await createTestApp();
    env = { ...testApp.graphEnv, HTTP_WORKERS: '2' };
  });
  afterAll(() => testApp.close());

  it(
    'answers from every worker, sums their metrics, and stops on SIGTERM',
    async () => {
      const service = await startServiceFromSource(env);
      try {
        await untilHealthy(service, STARTING_MS);
        await untilLogged(service, 'Every HTTP worker is ready', 1, STARTING_MS);
        const opsToken = await testApp.token('ops');
        for (let index = 0; index < 30; index++) {
          expect((await getOnce(service.port, '/no-such-route')).status).toBe(404);
        }

        const metrics = await getOnce(service.port, '/metrics', opsToken);

        expect(metrics.status).toBe(200);
        // Each worker counted only the requests it answered; one worker's count would fall short.
        expect(metrics.text).toContain(
          'http_request_duration_seconds_count{method="GET",route="(unmatched)",status="404"} 30\n',
        );
        const answeredBy = new Set(
          service
            .logs()
            .map((line) => JSON.parse(line) as { pid: number; req?: { path: string } })
            .filter((line) => line.req?.path === '/no-such-route')
            .map((line) => line.pid),
        );
        expect(answeredBy.size).toBe(2);
        expect(answeredBy.has(service.process.pid!)).toBe(false);
      } finally {
        expect(await service.stop()).toBe(0);
      }
    },
    TEST_MS,
  );

  it(
    'stops with an error when it cannot listen (the port is taken)',
    async () => {
      const taken = http.createServer().listen(0);
      await once(taken, 'listening');
      try {
        const service = await startServiceFromSource({
          ...env,
          PORT: String((taken.address() as AddressInfo).port),
        });
        const [code] = await once(service.process, 'exit');
        expect(code).toBe(1);
        expect(service.logs().some((line) => line.includes('Cannot listen on the port'))).toBe(true);
      } finally {
        taken.close();
      }
    },
    TEST_MS,
  );

  it(
    'replaces a worker that dies while serving',
    async () => {
      const service = await startServiceFromSource(env);
      const allReadyLines = () =>
        service.logs().filter((line) => line.includes('Every HTTP worker is ready'));
      try {
        await untilHealthy(service, STARTING_MS);
        await untilLogged(service, 'Every HTTP worker is ready', 1, STARTING_MS);
        const readyLine = service.logs().find((line) => line.includes('An HTTP worker is ready'))!;
        const worker = (JSON.parse(readyLine) as { pid: number }).pid;

        process.kill(worker, 'SIGKILL');

        await untilLogged(service, 'An HTTP worker exited');
        await untilLogged(service, 'Every HTTP worker is ready', 2, STARTING_MS);
        expect(allReadyLines()).toHaveLength(2);
        expect((await getOnce(service.port, '/health')).status).toBe(200);
      } finally {
        expect(await service.stop()).toBe(0);
      }
    },
    TEST_MS,
  );
});
