import cluster, { Worker } from 'node:cluster';
import pino from 'pino';
import { relayGathers } from './gather';

/** A worker that dies this soon after it last started is not started again: it would only die again. */
const STEADY_AFTER_MS = 10_000;
/** How long after a worker died unexpectedly its replacement starts. */
const RESTART_DELAY_MS = 1_000;

/**
 * The primary process when HTTP is served by several (`HTTP_WORKERS`): it forks the workers, which
 * each run the whole app and share the listening port (Node's cluster hands connections out in
 * turn) and the store (SQLite is safe across processes, and every cache is checked against the
 * store's version), relays what they gather from each other (metrics), and starts a new worker
 * when one dies. A worker that fails at start (a port in use, a store that will not open) ends the
 * service instead. SIGTERM and SIGINT are passed on; the primary exits when every worker has.
 */
export function superviseHttpWorkers(count: number, logLevel: string): void {
  const logger = pino({ level: logLevel }).child({ context: 'HttpWorkers' });
  const started = new Map<number, number>();
  let stopping = false;
  const fork = () => started.set(cluster.fork().id, Date.now());

  relayGathers();
  const listening = new Set<number>();
  cluster.on('listening', (worker: Worker) => {
    listening.add(worker.id);
    if (listening.size === count) logger.info({ workers: count }, 'Every HTTP worker is listening');
  });
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const ranMs = Date.now() - (started.get(worker.id) ?? 0);
    started.delete(worker.id);
    listening.delete(worker.id);
    if (stopping) {
      if (started.size === 0) process.exit();
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'An HTTP worker exited');
    if (ranMs < STEADY_AFTER_MS) {
      logger.fatal('It exited soon after it started: stopping the service');
      process.exitCode = 1;
      stop();
      if (started.size === 0) process.exit();
      return;
    }
    setTimeout(fork, RESTART_DELAY_MS);
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  logger.info({ workers: count }, 'Starting HTTP workers');
  for (let index = 0; index < count; index++) fork();
}
