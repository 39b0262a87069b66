import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { OpenApiAnswers } from './support/openapi-answers';
import { TestApp, createTestApp } from './support/test-app';
import { getOnce, startServiceFromSource, untilHealthy, untilLogged } from './support/service-process';

/** The service as `npm start` runs it, from the start: its settings, its first line, its root. */
describe('starting the service', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'archive-start-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('refuses settings that are not allowed: each named on stderr, no stack trace, exit code 1', async () => {
    const service = await startServiceFromSource({
      GRAPH_URL: `sqlite:${path.join(dataDir, 'never.db')}`,
      LOG_LEVEL: 'verbose',
      PORT: 'abc',
      IMPORT_RUNNER: 'elsewhere',
    });
    const [code] = (await once(service.process, 'exit')) as [number | null];
    expect(code).toBe(1);
    const stderr = service.stderr();
    expect(stderr).toContain('3 settings are not allowed:');
    expect(stderr).toContain('PORT="abc": must be an integer from 0 to 65535');
    expect(stderr).toContain(
      'LOG_LEVEL="verbose": must be one of fatal, error, warn, info, debug, trace, silent',
    );
    expect(stderr).toContain('IMPORT_RUNNER="elsewhere": must be one of thread, inline');
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(service.logs()).toEqual([]);
  });

  it("logs one line saying where it listens and how to make the first token, without Nest's route lines", async () => {
    const service = await startServiceFromSource({ GRAPH_URL: `sqlite:${path.join(dataDir, 'fresh.db')}` });
    try {
      await untilLogged(service, 'Listening on');
      const [line] = service.logs().filter((entry) => entry.includes('Listening on'));
      expect(JSON.parse(line)).toMatchObject({
        level: 30,
        context: 'Start',
        msg: expect.stringContaining(
          `Listening on http://localhost:${service.port}: the console at http://localhost:${service.port}/console`,
        ),
      });
      expect(JSON.parse(line).msg).toContain('No token exists yet');
      expect(JSON.parse(line).msg).toContain('npx archive-cli token create --role ops');
      expect(service.logs().filter((entry) => /Mapped \{|dependencies initialized/.test(entry))).toEqual([]);

      await untilHealthy(service);
      const index = await getOnce(service.port, '/');
      expect(index.status).toBe(200);
      expect(JSON.parse(index.text)).toMatchObject({ links: { console: '/console', docs: '/docs' } });
      // The health probes above, answered, are not in the info log; the index's request is.
      await untilLogged(service, '"path":"/"');
      expect(service.logs().filter((entry) => entry.includes('"path":"/health"'))).toEqual([]);
    } finally {
      await service.stop();
    }
  });
});

describe('GET /', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('sends a browser on to the console, and answers other clients with the links to every part', async () => {
    const browser = await request(testApp.server).get('/').set('Accept', 'text/html,application/xhtml+xml');
    expect(browser.status).toBe(302);
    expect(browser.headers.location).toBe('/console');

    const client = await request(testApp.server).get('/').set('Accept', 'application/json');
    expect(client.status).toBe(200);
    const openApi = new OpenApiAnswers((await request(testApp.server).get('/openapi.json')).body);
    openApi.check('get', '/', client);
    expect(Object.keys(openApi.document.paths['/'].get.responses)).toEqual(['200', '302']);
    expect(client.body).toEqual({
      service: 'archival-data-service',
      links: {
        console: '/console',
        docs: '/docs',
        openapi: '/openapi.json',
        portal: '/api/v1',
        health: '/health/ready',
        metrics: '/metrics',
      },
    });
  });
});
