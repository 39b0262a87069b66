import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule, Params } from 'nestjs-pino';
import pino, { DestinationStream } from 'pino';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/** Where application logs go: standard output, one JSON object per line. Tests override it. */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** An incoming request id is kept only when it is short and made of safe characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Everything that may carry a secret, wherever a log call puts it. Request headers and query
 * strings are not serialised in the first place; these paths catch them in objects that other
 * code logs.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.query.token',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'token',
  '*.token',
];

function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers[REQUEST_ID_HEADER.toLowerCase()];
  const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The path without the query string, which may hold a token. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Request and response as logged. pino-http would first pass each through pino's standard
 * serializer, which copies the headers and parses the query of every request only for these to
 * pick three fields; they read the same fields from the objects themselves instead.
 */
const serializers = {
  // As the standard serializer: Express's `originalUrl`, since a mounted middleware sees `url`
  // without the mount path.
  req: (req: IncomingMessage & { id: string; originalUrl?: string }) => ({
    id: req.id,
    method: req.method,
    path: pathOf(req.originalUrl ?? req.url ?? ''),
  }),
  // As the standard serializer: no status until the headers have gone (an aborted request).
  res: (res: ServerResponse) => ({ statusCode: res.headersSent ? res.statusCode : null }),
  err: pino.stdSerializers.err,
};

export function appLoggerParams(config: AppConfig, destination: DestinationStream): Params {
  return {
    // Every path, as nestjs-pino's default route does, but mounted as an Express middleware on `/`,
    // which the router runs for every request without matching the path, rather than as a route
    // of every method. (The default exists for a global prefix, which this app does not set.)
    forRoutes: ['/'],
    pinoHttp: [
      {
        level: config.logLevel,
        genReqId: requestIdOf,
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        wrapSerializers: false,
        serializers,
        customLogLevel: (_req, res, error) => {
          if (error !== undefined || res.statusCode >= 500) return 'error';
          return res.statusCode >= 400 ? 'warn' : 'info';
        },
      },
      destination,
    ],
  };
}

/** Structured JSON logs through nestjs-pino: one line per request, plus the application's logs. */
export const AppLoggerModule = LoggerModule.forRootAsync({
  providers: [{ provide: LOG_DESTINATION, useFactory: () => pino.destination(1) }],
  inject: [APP_CONFIG, LOG_DESTINATION],
  useFactory: appLoggerParams,
});
