import cluster, { Worker } from 'node:cluster';
import net from 'node:net';
import pino from 'pino';
import { AppConfig, LISTEN_HOST } from '../config/app-config';
import { ConnectionBalancer, ConnectionTarget, isConnectionMessage } from './connection-balancer';
import { relayClusterMetrics } from './cluster-metrics';

/** How long after a worker died unexpectedly its replacement starts. */
const RESTART_DELAY_MS = 1_000;

function connectionTarget(worker: Worker): ConnectionTarget {
  return {
    id: worker.id,
    hand: (socket, sent) => worker.send({ connection: 'handed' }, socket, { keepOpen: false }, sent),
  };
}

/**
 * The primary process when HTTP is served by several (`HTTP_WORKERS`): it listens on the port,
 * forks the workers, which each run the whole app, and hands each connection to the worker with
 * the fewest open (`ConnectionBalancer`). The workers share the store (SQLite is safe across
 * processes, and every cache is checked against the store's version). The primary relays what
 * the workers' metrics (`cluster-metrics.ts`), and starts a new worker when one that was serving
 * dies. A worker that dies before it is ready (a store that will not open) ends the service
 * instead: its replacement would fail the same way; so does a port the primary cannot listen on.
 * SIGTERM and SIGINT are passed on; the primary exits when every worker has.
 */
export function superviseHttpWorkers(config: Pick<AppConfig, 'httpWorkers' | 'port' | 'logLevel'>): void {
  const logger = pino({ level: config.logLevel }).child({ context: 'HttpWorkers' });
  /** Ids of the live workers. */
  const live = new Set<number>();
  /** Ids of the live workers that said they are ready, and so have been serving. */
  const ready = new Set<number>();
  const balancer = new ConnectionBalancer();
  const server = net.createServer({ pauseOnConnect: true }, (socket) => balancer.hand(socket));
  let stopping = false;
  const fork = () => live.add(cluster.fork().id);

  relayClusterMetrics();
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isConnectionMessage(message)) return;
    if (message.connection === 'closed') return balancer.closed(worker.id);
    if (message.connection !== 'ready' || stopping) return;
    ready.add(worker.id);
    balancer.ready(connectionTarget(worker));
    logger.info({ pid: worker.process.pid }, 'An HTTP worker is ready');
    if (ready.size === config.httpWorkers)
      logger.info({ workers: config.httpWorkers }, 'Every HTTP worker is ready');
  });
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    live.delete(worker.id);
    balancer.gone(worker.id);
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
    server.close();
    if (live.size === 0) process.exit();
    // The signal itself, at once: each worker shuts down within its grace period
    // (graceful-shutdown.ts); `worker.kill` would first wait for its connections to close.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  server.on('error', (error) => {
    if (server.listening) return logger.error({ err: error }, 'Accepting a connection failed');
    logger.fatal({ err: error, port: config.port }, 'Cannot listen on the port: stopping the service');
    process.exit(1);
  });
  // Workers start once it listens.
  server.listen(config.port, LISTEN_HOST, () => {
    logger.info({ workers: config.httpWorkers, port: config.port }, 'Starting HTTP workers');
    for (let index = 0; index < config.httpWorkers; index++) fork();
  });
}
