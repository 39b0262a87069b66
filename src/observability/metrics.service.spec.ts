import { GraphStore } from '../graph/graph-store';
import { MetricsService, UNMATCHED_ROUTE } from './metrics.service';

/** A store whose write queue holds `queued` transactions; metrics ask it nothing else. */
function storeWithQueue(queued: () => number): GraphStore {
  return { queuedWrites: queued } as unknown as GraphStore;
}

/** The sample lines of `text` whose name starts with `prefix`. */
function samples(text: string, prefix: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(prefix));
}

describe('MetricsService', () => {
  it('times requests in a histogram by method, route template and status', async () => {
    const metrics = new MetricsService(storeWithQueue(() => 0));
    metrics.recordRequest('GET', '/api/v1/:id', 200, 0.004);
    metrics.recordRequest('GET', '/api/v1/:id', 200, 0.3);
    metrics.recordRequest('GET', UNMATCHED_ROUTE, 404, 0.001);

    const text = await metrics.render();

    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(samples(text, 'http_request_duration_seconds_count')).toEqual([
      'http_request_duration_seconds_count{method="GET",route="/api/v1/:id",status="200"} 2',
      'http_request_duration_seconds_count{method="GET",route="(unmatched)",status="404"} 1',
    ]);
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v1/:id",status="200"} 1',
    );
    expect(text).toContain(
      'http_request_duration_seconds_sum{method="GET",route="/api/v1/:id",status="200"} 0.304',
    );
  });

  it('records imports: duration and items per import by endpoint and outcome, items by status', async () => {
    const metrics = new MetricsService(storeWithQueue(() => 0));
    metrics.recordImport('ead', 'succeeded', true, 2, { created: 5, updated: 1, unchanged: 4 });
    metrics.recordImport('ead', 'interrupted', true, 20);

    const text = await metrics.render();

    expect(samples(text, 'import_duration_seconds_count')).toEqual([
      'import_duration_seconds_count{endpoint="ead",outcome="succeeded",commit="true"} 1',
      'import_duration_seconds_count{endpoint="ead",outcome="interrupted",commit="true"} 1',
    ]);
    expect(samples(text, 'import_items_sum')).toEqual([
      'import_items_sum{endpoint="ead",outcome="succeeded",commit="true"} 10',
    ]);
    expect(samples(text, 'import_items_total')).toEqual([
      'import_items_total{endpoint="ead",status="created",commit="true"} 5',
      'import_items_total{endpoint="ead",status="updated",commit="true"} 1',
      'import_items_total{endpoint="ead",status="unchanged",commit="true"} 4',
    ]);
  });

  it("reads gauges when collected: the store's write queue, and any other registered", async () => {
    let queued = 2;
    const metrics = new MetricsService(storeWithQueue(() => queued));
    metrics.gauge('things_running', 'Things running', () => queued * 10);
    expect(samples(await metrics.render(), 'graph_write_queue_length ')).toEqual([
      'graph_write_queue_length 2',
    ]);
    queued = 0;
    const text = await metrics.render();
    expect(samples(text, 'graph_write_queue_length ')).toEqual(['graph_write_queue_length 0']);
    expect(samples(text, 'things_running ')).toEqual(['things_running 0']);
  });

  it("includes the process's own: memory, heap, event-loop lag and GC", async () => {
    const text = await new MetricsService(storeWithQueue(() => 0)).render();
    for (const family of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_gc_duration_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${family} `);
    }
  });
});
