import { randomUUID } from 'node:crypto';
import { Injectable, NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PinoLogger } from 'nestjs-pino';
import { pathOf } from './app-logger';

const REQUEST_ID_HEADER = 'X-Request-Id';
/** As Node keys incoming headers. */
const INCOMING_REQUEST_ID = REQUEST_ID_HEADER.toLowerCase();
/** An incoming request id is kept only when it is short and made of safe characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A request, as middleware sees it (Node's own), with the id its log lines carry (`req.id`, as
 * pino-http names it).
 */
export type IdentifiedRequest = IncomingMessage & { id?: string };

/** The id `RequestLogMiddleware` gave the request; every request the app answers has one. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as IdentifiedRequest).id;
}

/** The request's id: the incoming one when it is sane, else a new UUID; echoed in the response. */
function assignRequestId(req: IdentifiedRequest, res: ServerResponse): void {
  const incoming = req.headers[INCOMING_REQUEST_ID];
  req.id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, req.id);
}

/**
 * The paths that probes and the console ask again and again (health and metrics scrapes, the
 * console's jobs list and a job's state every few seconds): answered, they are logged at `debug`,
 * so that the `info` log keeps the requests people and clients make.
 */
const POLLED_PATHS = /^\/(?:health(?:\/(?:live|ready))?|metrics|import\/jobs(?:\/[^/]+)?)\/?$/;

/**
 * A request's line: at `error` for a server fault, `warn` for a client error or an abandoned
 * request, `debug` for a polled path's answer, else `info`.
 */
function lineOf(
  req: IdentifiedRequest,
  res: ServerResponse,
): { level: 'debug' | 'info' | 'warn' | 'error'; message: string } {
  if (res.statusCode >= 500) return { level: 'error', message: 'request errored' };
  if (!res.writableFinished) return { level: 'warn', message: 'request aborted' };
  if (res.statusCode >= 400) return { level: 'warn', message: 'request completed' };
  // As the request line names it: the original URL, which a middleware mounted on a path changes.
  const url = (req as IdentifiedRequest & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const polled = req.method === 'GET' && POLLED_PATHS.test(pathOf(url));
  return { level: polled ? 'debug' : 'info', message: 'request completed' };
}

/**
 * One JSON line per request once it is answered or abandoned, as pino-http writes it: the request
 * (id, method, path), the response's status and the time in ms (the root logger's serializers
 * pick the fields, `app-logger.ts`).
 *
 * Written here through the root logger, not by pino-http: nestjs-pino mounts that with a child
 * logger and an AsyncLocalStorage context for each request, and an active AsyncLocalStorage makes
 * every promise in the process dearer. Together they cost the portal 10–25% of its CPU a request.
 * Logs written while a request runs name it themselves, where they are written (`{ req }`).
 */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  constructor(private readonly logger: PinoLogger) {}

  use(req: IdentifiedRequest, res: ServerResponse, next: () => void): void {
    assignRequestId(req, res);
    const started = Date.now();
    const log = (): void => {
      res.off('finish', log);
      res.off('close', log);
      const { level, message } = lineOf(req, res);
      this.logger.logger[level]({ req, res, responseTime: Date.now() - started }, message);
    };
    res.on('finish', log);
    res.on('close', log);
    next();
  }
}
