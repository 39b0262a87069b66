import { NestApplicationOptions } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { Logger } from 'nestjs-pino';
import { answerConnectionError, trackRequests } from './http/connection-errors';
import { AppConfig } from './config/app-config';
import { RoutedRequest } from './observability/request-metrics.middleware';
import { withQuietStartup } from './observability/startup-log';
import { serveOpenApi } from './openapi/openapi';
import { answerRefusal, registerRefusalAnswers } from './http/interface-errors';

/**
 * The longest path parameter routed, such as an item id in `/api/v1/{id}`: any that fits in a
 * request line (find-my-way's default, 100 characters, would answer 404 to a deep unit's id).
 */
const MAX_PARAM_LENGTH = 16 * 1024;

/**
 * The HTTP platform: Fastify, whose request handling costs the portal less CPU a request than
 * Express's (docs/performance.md). As with Express, a trailing slash routes like its absence, and
 * a request must arrive whole within `REQUEST_TIMEOUT_MS` (Node's limit, which Fastify turns off by
 * default), a large upload included.
 */
export function createHttpAdapter(config: Pick<AppConfig, 'requestTimeoutMs'>): FastifyAdapter {
  return new FastifyAdapter({
    requestTimeout: config.requestTimeoutMs,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: true },
    frameworkErrors: answerRefusal,
    clientErrorHandler: answerConnectionError,
  });
}

/**
 * How `main.ts`, the tests and the benchmarks create the app: logs buffered until the app's own
 * logger takes them (`configureApp`), and without Nest's body parsers, which it would register as
 * the app starts, after `configureApp` has left every body to the import run.
 */
export const APP_OPTIONS: NestApplicationOptions = { bufferLogs: true, bodyParser: false };

/**
 * Readies the app to answer requests without listening: Fastify routes requests once its plugins
 * are loaded, which listening would wait for. The end-to-end tests, which inject their requests,
 * start the app so.
 */
export async function initWithoutListening(app: NestFastifyApplication): Promise<void> {
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
}

/**
 * Everything `main.ts` does to the application besides listening, shared with the end-to-end
 * tests so that they exercise the same app.
 */
export function configureApp(app: NestFastifyApplication): void {
  app.useLogger(withQuietStartup(app.get(Logger)));
  registerRefusalAnswers(app);
  trackRequests(app.getHttpServer());
  noteRouteTemplates(app);
  leaveBodiesUnread(app);
  // Limits are applied by route (`RateLimited`), with the IETF draft's `RateLimit-*` headers.
  void app.register(fastifyRateLimit, { global: false, enableDraftSpec: true });
  serveOpenApi(app);
}

/**
 * Keeps, on Node's request, the template of the route Fastify matched (`/api/v1/:id`), by which
 * the metrics time requests (`RequestMetricsMiddleware`, which sees Node's request only).
 */
function noteRouteTemplates(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, _reply, done) => {
      (request.raw as RoutedRequest).routeTemplate = request.routeOptions.url;
      done();
    });
}

/**
 * Request bodies are streamed by the import run itself (spooled to its workspace under its own
 * size limit), whatever their media type: Fastify's parsers, which would buffer JSON and text
 * bodies whole, are replaced by one that leaves every body to the handler.
 */
function leaveBodiesUnread(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _body, done) => done(null));
}
