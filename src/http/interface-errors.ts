import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  InternalServerErrorException,
  Logger,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import { sendImportError } from '../import/import-errors';
import {
  IdentifiedRequest,
  RequestLogMiddleware,
  requestIdOf,
} from '../observability/request-log.middleware';
import { RequestMetricsMiddleware } from '../observability/request-metrics.middleware';
import { sendJsonApiError } from '../portal/jsonapi-errors';
import { portalCors } from '../portal/portal-cors.middleware';

type ErrorSender = (exception: unknown, request: FastifyRequest, reply: FastifyReply) => void;
type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * The interfaces whose errors have a format of their own, by the first segment of their paths:
 * how each answers an error, and the middleware of its own that its answers pass.
 */
const logger = new Logger('ExceptionsHandler');

/**
 * Nest's own error format (`statusCode`, `message`, `error`), for paths of no interface with a
 * format of its own (health, metrics, docs), with the request id as every error body has it.
 */
function sendDefaultError(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const requestId = requestIdOf(request.raw);
  if (!(exception instanceof HttpException)) {
    logger.error({ req: request.raw, err: exception, msg: 'A request failed' });
  }
  const error =
    exception instanceof HttpException
      ? exception
      : new InternalServerErrorException('Internal server error');
  const status = error.getStatus();
  const response = error.getResponse();
  const body =
    typeof response === 'string'
      ? { statusCode: status, message: response, error: STATUS_CODES[status] }
      : response;
  if (!reply.raw.headersSent) void reply.code(status).send({ ...body, requestId });
}

const INTERFACES = new Map<string, { send: ErrorSender; middleware?: Middleware }>([
  ['api', { send: sendJsonApiError, middleware: portalCors }],
  ['import', { send: sendImportError }],
]);
const FIRST_SEGMENT = /^\/([^/?]*)/;

/** The interface a request's path names, if it has an error format of its own. */
function interfaceOf(request: FastifyRequest) {
  const segment = FIRST_SEGMENT.exec(request.raw.url ?? '')?.[1];
  return segment === undefined ? undefined : INTERFACES.get(segment);
}

/**
 * Every error of a request, answered in the format of the interface its path names: those its
 * controllers and guards throw, and those no controller sees, unknown routes (404) and what
 * Fastify refuses after the middleware but before a route's handler (a Content-Type it cannot
 * parse: 415). Elsewhere, Nest's own format. Every error body carries the request id.
 */
@Catch()
export class InterfaceErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const send = interfaceOf(request)?.send ?? sendDefaultError;
    send(exception, request, http.getResponse<FastifyReply>());
  }
}

type Refusal = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/** What each configured app answers its router's refusals with (`answerRefusal`). */
const appRefusals = new WeakMap<FastifyInstance, Refusal>();

/** Fastify's own detail for a malformed path echoes the path in quotes, and does not say why. */
const BAD_URL_DETAIL = 'The path is not a valid URL: a % must begin an escape of two hexadecimal digits';

/**
 * Fastify's router refuses a path whose percent-encoding is malformed (400), or with a segment
 * longer than it routes (414, which Node's limit on a request's head forestalls as it stands),
 * before any hook, middleware or filter runs: its answer is a JSON of its own, with no request id,
 * log line or count. This answers them as the app answers any other error of the interface the
 * path names, through the request log and metrics. Set as Fastify's `frameworkErrors`, which must
 * be given before the app exists: the app registers its answer when it is configured
 * (`registerRefusalAnswers`).
 */
export function answerRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const answer = appRefusals.get(request.server) ?? refuse;
  answer(error, request, reply);
}

export function registerRefusalAnswers(app: NestFastifyApplication): void {
  const requestLog = app.get(RequestLogMiddleware);
  const metrics = app.get(RequestMetricsMiddleware);
  appRefusals.set(app.getHttpAdapter().getInstance(), (error, request, reply) => {
    // Typed by Fastify with its own request id, which Fastify's logging, left off here, would set.
    const raw = request.raw as IdentifiedRequest;
    requestLog.use(raw, reply.raw, () => metrics.use(raw, reply.raw, () => refuse(error, request, reply)));
  });
}

function refuse(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? HttpStatus.BAD_REQUEST;
  const exception = new HttpException(
    error.code === 'FST_ERR_BAD_URL' ? BAD_URL_DETAIL : error.message,
    status,
  );
  const errors = interfaceOf(request);
  if (errors === undefined) return sendDefaultError(exception, request, reply);
  // The interface's own middleware (the API's CORS header), which the router's refusal skipped.
  const middleware = errors.middleware ?? ((_request, _response, next) => next());
  middleware(request.raw, reply.raw, () => errors.send(exception, request, reply));
}
