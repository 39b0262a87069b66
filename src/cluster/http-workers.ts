import cluster, { Worker } from 'node:cluster';
import pino from 'pino';
import type { AppConfig } from '../config/app-config';
import { logDestination } from '../observability/app-logger';
import { relayClusterJobs } from './cluster-jobs';
import { relayClusterMetrics } from './cluster-metrics';
import { relayClusterQueue } from './cluster-queue';

/** How long after a worker died unexpectedly its replacement starts. */
const RESTART_DELAY_MS = 1_000;

/**
 * The primary process when HTTP is served by several (`HTTP_WORKERS`): it forks the workers, which
 * each run the whole app and share the listening port (Node's cluster hands connections out in
 * turn) and the store (SQLite is safe across processes, and every cache is checked against the
 * store's version). The primary relays the workers' metrics (`cluster-metrics.ts`) and import jobs
 * (`cluster-jobs.ts`), keeps the import queue's one bound (`cluster-queue.ts`), and starts a
 * new worker when one that was serving dies. A worker that dies before it listens (a port in use,
 * a store that will not open) ends the service instead: its replacement would fail the same way.
 * SIGTERM and SIGINT are passed on; the primary exits when every worker has.
 */
export function superviseHttpWorkers(config: Pick<AppConfig, 'httpWorkers' | 'logLevel' | 'import'>): void {
  const logger = pino({ level: config.logLevel }, logDestination()).child({ context: 'HttpWorkers' });
  /** Ids of the live workers. */
  const live = new Set<number>();
  /** Ids of the live workers that listen, and so have been serving. */
  const ready = new Set<number>();
  let stopping = false;
  const fork = () => live.add(cluster.fork().id);

  relayClusterMetrics();
  relayClusterJobs();
  relayClusterQueue(config.import.queue);
  cluster.on('listening', (worker: Worker) => {
    if (stopping) return;
    ready.add(worker.id);
    logger.info({ pid: worker.process.pid }, 'An HTTP worker is ready');
    if (ready.size === config.httpWorkers)
      logger.info({ workers: config.httpWorkers }, 'Every HTTP worker is ready');
  });
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    live.delete(worker.id);
    const served = ready.delete(worker.id);
    if (stopping) {
      if (live.size === 0) process.exit();
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'An HTTP worker exited');
    if (!served) {
      logger.fatal('It exited before it was ready: stopping the service');
      process.exitCode = 1;
      stop();
      return;
    }
    setTimeout(fork, RESTART_DELAY_MS);
  });
  const stop = () => {
    stopping = true;
    if (live.size === 0) process.exit();
    // The signal itself, at once: each worker shuts down within its grace period
    // (graceful-shutdown.ts); `worker.kill` would first wait for its connections to close.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  logger.info({ workers: config.httpWorkers }, 'Starting HTTP workers');
  for (let index = 0; index < config.httpWorkers; index++) fork();
}
