import cluster, { Worker } from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';

/**
 * Metrics of every HTTP worker process (`HTTP_WORKERS` > 1), aggregated by prom-client's cluster
 * registry: a request for `/metrics` reaches one worker, which asks the primary; the primary asks
 * every worker for its registries (prom-client's own messages) and answers the aggregate.
 */

/** Primary → the asking worker: the aggregate in the text format, or why there is none. */
type MetricsResult = { clusterMetrics: 'result'; id: number; text?: string; error?: string };

type MetricsMessage =
  /** Worker → primary: every worker's metrics, please. */
  { clusterMetrics: 'request'; id: number } | MetricsResult;

function isMetricsMessage(message: unknown): message is MetricsMessage {
  return typeof message === 'object' && message !== null && 'clusterMetrics' in message;
}

/** The primary's part: answers workers' requests. Call once, in the primary. */
export function relayClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  const answer = (worker: Worker, result: MetricsResult) => {
    if (worker.isConnected()) worker.send(result);
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMetricsMessage(message) || message.clusterMetrics !== 'request') return;
    const { id } = message;
    aggregator.clusterMetrics().then(
      (text) => answer(worker, { clusterMetrics: 'result', id, text }),
      (error: Error) => answer(worker, { clusterMetrics: 'result', id, error: error.message }),
    );
  });
}

/**
 * In a worker: offers `registries` to the primary's aggregation, and answers a function that
 * asks the primary for every worker's metrics, this one's included, in the text format.
 */
export function clusterMetricsFrom(registries: Registry[]): () => Promise<string> {
  AggregatorRegistry.setRegistries(registries);
  // Its constructor makes this worker answer the primary's requests for its registries.
  new AggregatorRegistry();
  const waiting = new Map<number, (result: MetricsResult) => void>();
  let lastId = 0;
  process.on('message', (message: unknown) => {
    if (!isMetricsMessage(message) || message.clusterMetrics !== 'result') return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, (result) =>
        result.text === undefined ? reject(new Error(result.error)) : resolve(result.text),
      );
      process.send?.({ clusterMetrics: 'request', id } satisfies MetricsMessage);
    });
}
