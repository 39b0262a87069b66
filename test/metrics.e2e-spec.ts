import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { preflight } from './support/preflight';

const EAG = readFileSync(path.resolve(__dirname, '../../shared/fixtures/ehri/eag.xml'));

describe('GET /metrics', () => {
  let t: ImportTestApp;
  let opsToken: string;

  beforeAll(async () => {
    t = await createImportTestApp();
    opsToken = await t.token('ops');
  });
  afterAll(() => t.close());

  const metrics = (token = opsToken) =>
    request(t.server).get('/metrics').set('Authorization', `Bearer ${token}`);

  /** The value of one sample line, 0 when the sample is absent. */
  async function sample(line: string): Promise<number> {
    const text = (await metrics().expect(200)).text;
    const found = text.split('\n').find((candidate) => candidate.startsWith(`${line} `));
    return found === undefined ? 0 : Number(found.slice(line.length + 1));
  }

  it('serves the Prometheus text format to ops tokens only', async () => {
    const response = await metrics().expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.text).toContain('# TYPE http_requests_total counter');
    await request(t.server).get('/metrics').expect(401);
    await metrics(await t.token('portal')).expect(403);
  });

  it('counts answered requests by method and status', async () => {
    const before = await sample('http_requests_total{method="GET",status="404"}');
    await request(t.server).get('/no-such-route').expect(404);
    await request(t.server).get('/no-such-route').expect(404);
    expect(await sample('http_requests_total{method="GET",status="404"}')).toBe(before + 2);
  });

  it('counts requests to the root path too', async () => {
    const before = await sample('http_requests_total{method="GET",status="404"}');
    await request(t.server).get('/').expect(404);
    expect(await sample('http_requests_total{method="GET",status="404"}')).toBe(before + 1);
  });

  it('counts requests that the router refuses before any middleware (a malformed path)', async () => {
    const refused = 'http_requests_total{method="GET",status="400"}';
    const before = await sample(refused);
    await request(t.server).get('/import/logs/%ZZ').expect(400);
    await request(t.server).get('/%ZZ').expect(400);
    expect(await sample(refused)).toBe(before + 2);
  });

  it("counts requests that another module's middleware answers itself (a CORS preflight)", async () => {
    const preflights = 'http_requests_total{method="OPTIONS",status="204"}';
    const before = await sample(preflights);
    await preflight(t.server, '/api/v1/search').expect(204);
    expect(await sample(preflights)).toBe(before + 1);
  });

  it('counts imports by outcome and the items they created', async () => {
    await t.post('eag', { scope: 'nl', commit: 'true' }).type('text/xml').send(EAG).expect(201);
    await t.post('eag', { scope: 'nl' }).type('text/xml').send('<broken').expect(400);

    expect(await sample('imports_total{commit="true",endpoint="eag",outcome="succeeded"}')).toBe(1);
    expect(await sample('import_items_total{commit="true",endpoint="eag",status="created"}')).toBe(1);
    expect(await sample('imports_total{commit="false",endpoint="eag",outcome="failed"}')).toBe(1);
  });
});
