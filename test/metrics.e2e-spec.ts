import request from 'supertest';
import { ehriFixture } from './support/ehri-fixtures';
import { useOpsTestSuite } from './support/import-client';
import { preflight } from './support/preflight';

const EAG = ehriFixture('eag.xml');

describe('GET /metrics', () => {
  const suite = useOpsTestSuite();

  const metrics = (token = suite.opsToken) =>
    request(suite.t.server).get('/metrics').set('Authorization', `Bearer ${token}`);

  /** The value of one sample line, 0 when the sample is absent. */
  async function sample(line: string): Promise<number> {
    const text = (await metrics().expect(200)).text;
    const found = text.split('\n').find((candidate) => candidate.startsWith(`${line} `));
    return found === undefined ? 0 : Number(found.slice(line.length + 1));
  }

  it('serves the Prometheus text format to ops tokens only', async () => {
    const response = await metrics().expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.text).toContain('# TYPE http_request_duration_seconds histogram');
    await request(suite.t.server).get('/metrics').expect(401);
    await metrics(await suite.t.token('portal')).expect(403);
  });

  it('times requests in histograms by route template and status, after traffic', async () => {
    const search = 'http_request_duration_seconds_count{method="GET",route="/api/v1/search",status="200"}';
    const fetch = 'http_request_duration_seconds_count{method="GET",route="/api/v1/:id",status="404"}';
    const before = { search: await sample(search), fetch: await sample(fetch) };
    const portalToken = await suite.t.token('portal');
    for (const path of ['/api/v1/search', '/api/v1/search', '/api/v1/no-such-item']) {
      await request(suite.t.server).get(path).set('Authorization', `Bearer ${portalToken}`);
    }

    const text = (await metrics().expect(200)).text;

    expect(await sample(search)).toBe(before.search + 2);
    expect(await sample(fetch)).toBe(before.fetch + 1);
    // The buckets and the sum of the same series.
    expect(text).toMatch(
      /^http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/v1\/search",status="200"\} \d+$/m,
    );
    expect(text).toMatch(
      /^http_request_duration_seconds_sum\{method="GET",route="\/api\/v1\/search",status="200"\} [\d.e-]+$/m,
    );
  });

  it('counts unknown paths under one route, "(unmatched)"', async () => {
    const unmatched = 'http_request_duration_seconds_count{method="GET",route="(unmatched)",status="404"}';
    const before = await sample(unmatched);
    await request(suite.t.server).get('/no-such-route').expect(404);
    await request(suite.t.server).get('/no/such/route').expect(404);
    expect(await sample(unmatched)).toBe(before + 2);
  });

  it('counts requests that the router refuses before any middleware (a malformed path)', async () => {
    const refused = 'http_request_duration_seconds_count{method="GET",route="(unmatched)",status="400"}';
    const before = await sample(refused);
    await request(suite.t.server).get('/import/logs/%ZZ').expect(400);
    await request(suite.t.server).get('/%ZZ').expect(400);
    expect(await sample(refused)).toBe(before + 2);
  });

  it("counts requests that another module's middleware answers itself (a CORS preflight)", async () => {
    const text = async () => (await metrics().expect(200)).text;
    const preflights = (body: string) =>
      body
        .split('\n')
        .filter((line) => line.startsWith('http_request_duration_seconds_count{method="OPTIONS"'))
        .filter((line) => line.includes('status="204"'))
        .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
    const before = preflights(await text());
    await preflight(suite.t.server, '/api/v1/search').expect(204);
    expect(preflights(await text())).toBe(before + 1);
  });

  it('records imports: duration and items per import by endpoint and outcome, items by status', async () => {
    await suite.t.post('eag', { scope: 'nl', commit: 'true' }).type('text/xml').send(EAG).expect(201);
    await suite.t.post('eag', { scope: 'nl' }).type('text/xml').send('<broken').expect(400);

    expect(
      await sample('import_duration_seconds_count{endpoint="eag",outcome="succeeded",commit="true"}'),
    ).toBe(1);
    expect(
      await sample('import_duration_seconds_count{endpoint="eag",outcome="failed",commit="false"}'),
    ).toBe(1);
    expect(await sample('import_items_count{endpoint="eag",outcome="succeeded",commit="true"}')).toBe(1);
    expect(await sample('import_items_sum{endpoint="eag",outcome="succeeded",commit="true"}')).toBe(1);
    expect(await sample('import_items_total{endpoint="eag",status="created",commit="true"}')).toBe(1);
  });

  it('shows imports running, the write queue, memory, event-loop lag and GC', async () => {
    const text = (await metrics().expect(200)).text;
    expect(text).toContain('\nimport_jobs_running 0\n');
    expect(text).toContain('\ngraph_write_queue_length 0\n');
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds [\d.e-]+$/m);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });
});
