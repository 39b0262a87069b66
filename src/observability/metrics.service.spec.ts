import { MetricsService } from './metrics.service';

describe('MetricsService', () => {
  it('counts requests by method and status and sums their time by method', () => {
    const metrics = new MetricsService();
    metrics.recordRequest('GET', 200, 0.5);
    metrics.recordRequest('GET', 404, 0.25);
    metrics.recordRequest('GET', 200, 1);
    metrics.recordRequest('POST', 201, 2);

    const lines = metrics.render().split('\n');
    expect(lines.filter((line) => line.startsWith('http_request'))).toEqual([
      'http_requests_total{method="GET",status="200"} 2',
      'http_requests_total{method="GET",status="404"} 1',
      'http_requests_total{method="POST",status="201"} 1',
      'http_request_duration_seconds_sum{method="GET"} 1.75',
      'http_request_duration_seconds_sum{method="POST"} 2',
    ]);
  });

  it('escapes label values and keeps imports apart from requests', () => {
    const metrics = new MetricsService();
    metrics.recordImport('e"a\\d', 'succeeded', true, 3, { created: 2, updated: 0, unchanged: 1 });
    metrics.recordRequest('GET', 200, 1);

    const text = metrics.render();
    expect(text).toContain('imports_total{commit="true",endpoint="e\\"a\\\\d",outcome="succeeded"} 1');
    expect(text).toContain('import_items_total{commit="true",endpoint="e\\"a\\\\d",status="created"} 2');
    expect(text).toContain('http_requests_total{method="GET",status="200"} 1');
  });

  it('sums the snapshots of several processes, each sample by its labels', () => {
    const first = new MetricsService();
    const second = new MetricsService();
    first.recordRequest('GET', 200, 0.5);
    second.recordRequest('GET', 200, 0.25);
    second.recordRequest('GET', 500, 1);
    first.recordImport('ead', 'succeeded', true, 3, { created: 2, updated: 0, unchanged: 0 });

    const lines = first.render([first.snapshot(), second.snapshot()]).split('\n');

    expect(lines).toContain('http_requests_total{method="GET",status="200"} 2');
    expect(lines).toContain('http_requests_total{method="GET",status="500"} 1');
    expect(lines).toContain('http_request_duration_seconds_sum{method="GET"} 1.75');
    expect(lines).toContain('import_items_total{commit="true",endpoint="ead",status="created"} 2');
    // The snapshot crosses processes as it is.
    expect(JSON.parse(JSON.stringify(second.snapshot()))).toEqual(second.snapshot());
  });
});
