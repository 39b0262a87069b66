import { Injectable } from '@nestjs/common';
import cluster from 'node:cluster';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { clusterMetricsFrom } from '../cluster/cluster-metrics';
import { GraphStore } from '../graph/graph-store';
import { ImportOutcomeName } from '../import-logs/import-log.types';

/** Request durations, in seconds: from a cached portal read to a slow scoped search. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Import durations, in seconds: from a one-record dry run to a large finding aid. */
const IMPORT_BUCKETS = [0.05, 0.25, 1, 5, 15, 60, 300, 900, 3600];
/** Main items per import. */
const ITEM_BUCKETS = [0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

const IMPORT_LABELS = ['endpoint', 'outcome', 'commit'] as const;

/** A route template for requests no route matched (an unknown path, a path the router refused). */
export const UNMATCHED_ROUTE = '(unmatched)';

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (prom-client's defaults: CPU, resident memory, heap, event-loop lag,
 * GC, handles), collected once per process however many apps it runs (the tests run several).
 */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Metrics for operators' dashboards with prom-client, served by `GET /metrics` in the Prometheus
 * text format: request durations by route template and status, imports' durations and items by
 * endpoint and outcome, imports running, the store's write queue, and the process's own. With
 * `HTTP_WORKERS` > 1 the answer aggregates every worker process's (`cluster-metrics.ts`).
 */
@Injectable()
export class MetricsService {
  private readonly registry = new Registry();
  private readonly requestDuration = this.histogram(
    'http_request_duration_seconds',
    'Time to answer HTTP requests, by method, route template and status',
    ['method', 'route', 'status'],
    REQUEST_BUCKETS,
  );
  private readonly importDuration = this.histogram(
    'import_duration_seconds',
    'Time imports took, by endpoint, outcome and whether they were to commit',
    IMPORT_LABELS,
    IMPORT_BUCKETS,
  );
  private readonly importItems = this.histogram(
    'import_items',
    'Main items (created, updated or unchanged) per import that succeeded, by endpoint',
    IMPORT_LABELS,
    ITEM_BUCKETS,
  );
  private readonly itemsByStatus = new Counter({
    name: 'import_items_total',
    help: 'Main items imports created, updated or left unchanged, by endpoint',
    labelNames: ['endpoint', 'status', 'commit'] as const,
    registers: [this.registry],
  });
  /** This process's metrics, or every HTTP worker's. */
  private readonly collect: () => Promise<string>;

  constructor(store: GraphStore) {
    this.gauge('graph_write_queue_length', 'Write transactions queued or running in this process', () =>
      store.queuedWrites(),
    );
    const registries = [processMetrics(), this.registry];
    this.collect = cluster.isWorker
      ? clusterMetricsFrom(registries)
      : () => Registry.merge(registries).metrics();
  }

  private histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** The media type of `render`'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** A gauge read whenever metrics are collected, such as the number of running imports. */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  recordRequest(method: string, route: string, status: number, seconds: number): void {
    this.requestDuration.observe({ method, route, status }, seconds);
  }

  recordImport(
    endpoint: string,
    outcome: ImportOutcomeName,
    committed: boolean,
    seconds: number,
    items?: { created: number; updated: number; unchanged: number },
  ): void {
    const labels = { endpoint, outcome, commit: String(committed) };
    this.importDuration.observe(labels, seconds);
    if (items === undefined) return;
    this.importItems.observe(labels, items.created + items.updated + items.unchanged);
    for (const [status, count] of Object.entries(items)) {
      this.itemsByStatus.inc({ endpoint, status, commit: String(committed) }, count);
    }
  }

  /** Every metric in the Prometheus text format (version 0.0.4). */
  render(): Promise<string> {
    return this.collect();
  }
}
