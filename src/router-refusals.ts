import { HttpException, HttpStatus } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { errorBodyOf } from './import/import-errors';
import { IdentifiedRequest, RequestLogMiddleware } from './logging/request-log.middleware';
import { RequestMetricsMiddleware } from './logging/request-metrics.middleware';
import { errorObject, sendDocument } from './portal/jsonapi';
import { portalCors } from './portal/portal-cors.middleware';

type Refusal = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/** What each configured app answers its router's refusals with (`answerRefusal`). */
const appRefusals = new WeakMap<FastifyInstance, Refusal>();

/** Each interface's paths, by the first segment, with how its errors are written. */
const INTERFACE_OF_PATH = /^\/(api|import)(?:[/?]|$)/;

/** Fastify's own detail for a malformed path echoes the path in quotes, and does not say why. */
const DETAILS: Record<string, string> = {
  FST_ERR_BAD_URL: 'The path is not a valid URL: a % must begin an escape of two hexadecimal digits',
};

/**
 * Fastify's router refuses a path whose percent-encoding is malformed (400), or with a segment
 * longer than it routes (414, which Node's limit on a request's head forestalls as it stands),
 * before any hook, middleware or filter runs: its answer is a JSON of its own, with no request id,
 * log line or count. This answers them as the app answers
 * any other error of the interface the path belongs to (JSON:API under `/api`, the import error
 * body under `/import`, Nest's elsewhere), through the request log and metrics. Set as Fastify's
 * `frameworkErrors`, which must be given before the app exists: the app registers its answer
 * when it is configured (`registerRefusalAnswers`).
 */
export function answerRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const answer = appRefusals.get(request.server) ?? plainRefusal;
  answer(error, request, reply);
}

export function registerRefusalAnswers(app: NestFastifyApplication): void {
  const requestLog = app.get(RequestLogMiddleware);
  const metrics = app.get(RequestMetricsMiddleware);
  appRefusals.set(app.getHttpAdapter().getInstance(), (error, request, reply) => {
    // Typed by Fastify with its own request id, which Fastify's logging, left off here, would set.
    const raw = request.raw as IdentifiedRequest;
    requestLog.use(raw, reply.raw, () =>
      metrics.use(raw, reply.raw, () => plainRefusal(error, request, reply)),
    );
  });
}

function plainRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? HttpStatus.BAD_REQUEST;
  const detail = DETAILS[error.code] ?? error.message;
  switch (INTERFACE_OF_PATH.exec(request.raw.url ?? '')?.[1]) {
    case 'api':
      return portalCors(request.raw, reply.raw, () =>
        sendDocument(reply, status, { errors: [errorObject(status, detail)] }),
      );
    case 'import':
      return void reply.code(status).send(errorBodyOf(new HttpException(detail, status)));
    default:
      return void reply
        .code(status)
        .send({ statusCode: status, message: detail, error: STATUS_CODES[status] });
  }
}
