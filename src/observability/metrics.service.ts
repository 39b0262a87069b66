import { Injectable } from '@nestjs/common';
import { answerGather } from '../cluster/gather';

type Labels = Record<string, string>;

interface Sample {
  labels: Labels;
  value: number;
}

interface Family {
  help: string;
  type: 'counter' | 'gauge';
  samples: Map<string, Sample>;
}

/** `{a="x",b="y"}` with Prometheus escaping; label order fixed so equal labels make one key. */
function labelText(labels: Labels): string {
  const pairs = Object.keys(labels)
    .sort()
    .map(
      (name) => `${name}="${labels[name].replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
    );
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

/**
 * One process's samples, family by family in the order they are defined, each sample by its label
 * text: what an HTTP worker tells the one that answers `GET /metrics` (`HTTP_WORKERS`).
 */
export type MetricsSnapshot = [name: string, samples: [key: string, labels: Labels, value: number][]][];

/** Where `render` gathers every process's snapshot. */
export const METRICS_TOPIC = 'metrics';

/**
 * Counters for operators' dashboards, served by `GET /metrics` in the Prometheus text format:
 * each process keeps its own, and the answer sums those of every process serving HTTP.
 * Deliberately small: request and import counts and times; per-item detail lives in the stored
 * import logs.
 */
@Injectable()
export class MetricsService {
  private readonly families = new Map<string, Family>();
  /**
   * The request counters' samples by method and status: every request adds to them, and finding
   * them by their label text would build that text each time.
   */
  private readonly requestSamples = new Map<string, Map<number, { count: Sample; seconds: Sample }>>();

  constructor() {
    this.define('http_requests_total', 'counter', 'HTTP requests answered, by method and status');
    this.define('http_request_duration_seconds_sum', 'counter', 'Total time spent answering HTTP requests');
    this.define('imports_total', 'counter', 'Imports run, by endpoint, outcome and whether they committed');
    this.define('import_duration_seconds_sum', 'counter', 'Total time spent in imports, by endpoint');
    this.define('import_items_total', 'counter', 'Items imports created, updated or left unchanged');
    answerGather(METRICS_TOPIC, () => this.snapshot());
  }

  recordRequest(method: string, status: number, seconds: number): void {
    let byStatus = this.requestSamples.get(method);
    if (byStatus === undefined) this.requestSamples.set(method, (byStatus = new Map()));
    let samples = byStatus.get(status);
    if (samples === undefined) {
      samples = {
        count: this.sample('http_requests_total', { method, status: String(status) }),
        seconds: this.sample('http_request_duration_seconds_sum', { method }),
      };
      byStatus.set(status, samples);
    }
    samples.count.value += 1;
    samples.seconds.value += seconds;
  }

  recordImport(
    endpoint: string,
    outcome: 'succeeded' | 'failed',
    committed: boolean,
    seconds: number,
    items?: { created: number; updated: number; unchanged: number },
  ): void {
    this.add('imports_total', { endpoint, outcome, commit: String(committed) }, 1);
    this.add('import_duration_seconds_sum', { endpoint }, seconds);
    for (const [status, count] of Object.entries(items ?? {})) {
      this.add('import_items_total', { endpoint, status, commit: String(committed) }, count);
    }
  }

  snapshot(): MetricsSnapshot {
    return [...this.families].map(([name, family]) => [
      name,
      [...family.samples].map(([key, { labels, value }]) => [key, labels, value]),
    ]);
  }

  /**
   * The Prometheus text exposition format, version 0.0.4, of the sums of `snapshots` (one per
   * process; by default this process's alone).
   */
  render(snapshots: readonly MetricsSnapshot[] = [this.snapshot()]): string {
    const sums = new Map<string, Map<string, Sample>>();
    for (const snapshot of snapshots) {
      for (const [name, samples] of snapshot) {
        let summed = sums.get(name);
        if (summed === undefined) sums.set(name, (summed = new Map()));
        for (const [key, labels, value] of samples) {
          const sample = summed.get(key);
          if (sample === undefined) summed.set(key, { labels, value });
          else sample.value += value;
        }
      }
    }
    const lines: string[] = [];
    for (const [name, family] of this.families) {
      lines.push(`# HELP ${name} ${family.help}`, `# TYPE ${name} ${family.type}`);
      for (const [key, { value }] of sums.get(name) ?? []) lines.push(`${name}${key} ${value}`);
    }
    return `${lines.join('\n')}\n`;
  }

  private define(name: string, type: Family['type'], help: string): void {
    this.families.set(name, { help, type, samples: new Map() });
  }

  private add(name: string, labels: Labels, amount: number): void {
    this.sample(name, labels).value += amount;
  }

  /** The sample of `name` with `labels`, created at 0 if there is none yet. */
  private sample(name: string, labels: Labels): Sample {
    const family = this.families.get(name);
    if (family === undefined) throw new Error(`No metric named ${name}`);
    const key = labelText(labels);
    let sample = family.samples.get(key);
    if (sample === undefined) family.samples.set(key, (sample = { labels, value: 0 }));
    return sample;
  }
}
