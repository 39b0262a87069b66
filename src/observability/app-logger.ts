import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule, Params } from 'nestjs-pino';
import pino, { DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/**
 * Where application logs go: standard output, one JSON object per line, or lines for people when
 * it is a terminal (`logDestination`). Tests override it.
 */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

/** A request's line for people: method, path, status and time, rather than its objects. */
export function readableLine(log: Record<string, unknown>, messageKey: string): string {
  const context = typeof log.context === 'string' ? `[${log.context}] ` : '';
  const req = log.req as { method?: string; path?: string } | undefined;
  const res = log.res as { statusCode?: number | null } | undefined;
  const request =
    req === undefined
      ? ''
      : `: ${req.method} ${req.path} ${res?.statusCode ?? '-'} ${String(log.responseTime)} ms`;
  return `${context}${String(log[messageKey])}${request}`;
}

/**
 * Standard output: JSON lines for log collectors, unless it is a terminal, where a person reads
 * them, coloured, with the time of day and without the fields `readableLine` shows.
 */
export function logDestination(stdout: { isTTY?: boolean } = process.stdout): DestinationStream {
  if (stdout.isTTY !== true) return pino.destination(1);
  return pretty({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: readableLine,
    destination: 1,
    sync: true,
  });
}

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

/** The path without the query string, which may hold a token. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Request and response as logged, read from the objects themselves: pino's standard serializers
 * copy the headers and parse the query of every request, which are never logged.
 */
const serializers = {
  // As the standard serializer: the original URL (`originalUrl`), since a middleware mounted on a
  // path sees `url` without it.
  req: (req: IncomingMessage & { id?: string; originalUrl?: string }) => ({
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
    // pino-http is mounted on no route: it only makes the app's root logger. Each request's line
    // is written by `RequestLogMiddleware`, without pino-http's child logger and async context.
    forRoutes: [],
    pinoHttp: [
      {
        level: config.logLevel,
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        wrapSerializers: false,
        serializers,
      },
      destination,
    ],
  };
}

/** Structured logs through nestjs-pino: the application's logs and the request lines. */
export const AppLoggerModule = LoggerModule.forRootAsync({
  providers: [{ provide: LOG_DESTINATION, useFactory: () => logDestination() }],
  inject: [APP_CONFIG, LOG_DESTINATION],
  useFactory: appLoggerParams,
});
