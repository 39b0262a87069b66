import { Logger } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { ShutdownService } from './shutdown.service';

/**
 * What closing the app may take after the grace period: cancelled imports stop (their worker is
 * stopped under those that do not, `RunningImports.drain`), roll back and store their logs,
 * requests in flight end, the store closes. Past it the process exits regardless, as soon as no
 * thread is inside a statement of SQLite's own code, which nothing can cut (docs/operations.md).
 */
export const CLOSE_MARGIN_MS = 2_000;

/**
 * How long requests still in flight once the imports are done may take to be answered (a
 * long-lived answer, such as an event stream, would never end): then their connections are cut.
 */
const LAST_ANSWERS_MS = 500;

/**
 * On SIGTERM or SIGINT, shuts the app down within `graceMs` plus `CLOSE_MARGIN_MS` (Nest's own
 * shutdown hooks would wait for imports without bound, then end the process by the signal rather
 * than with 0): it stops accepting connections, lets the registered work (running imports)
 * finish for up to `graceMs`, cancels what is left, closes the app (and with it the store) and
 * exits with 0. If closing hangs, it exits with 1 once the margin is over.
 */
export function shutDownOnSignals(app: INestApplication, graceMs: number): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    void shutDown(app, graceMs, signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function shutDown(app: INestApplication, graceMs: number, signal: NodeJS.Signals): Promise<void> {
  const logger = new Logger('Shutdown');
  const started = Date.now();
  setTimeout(() => {
    logger.error({ msg: 'Shutting down took too long: exiting now', graceMs, marginMs: CLOSE_MARGIN_MS });
    process.exit(1);
  }, graceMs + CLOSE_MARGIN_MS).unref();
  logger.log({ msg: 'Shutting down: accepting no new connections', signal, graceMs });
  try {
    // Connections already open stay until they are idle; readiness answers 503 meanwhile.
    const server = app.getHttpServer() as Server;
    server.close(() => undefined);
    await app.get(ShutdownService).drain(graceMs);
    setTimeout(() => server.closeAllConnections(), LAST_ANSWERS_MS).unref();
    await app.close();
    logger.log({ msg: 'Shut down', ms: Date.now() - started });
    process.exit(0);
  } catch (error) {
    logger.error({ msg: 'Shutting down failed', err: error });
    process.exit(1);
  }
}
