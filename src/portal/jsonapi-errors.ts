import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestIdOf } from '../observability/request-log.middleware';
import { ErrorObject, errorObject, sendDocument } from './jsonapi';
import { InvalidParameterException } from './search-params';

const logger = new Logger('PortalApi');

function errorOf(exception: unknown): ErrorObject {
  if (exception instanceof InvalidParameterException) {
    return errorObject(exception.getStatus(), exception.message, exception.parameter);
  }
  if (exception instanceof HttpException) return errorObject(exception.getStatus(), exception.message);
  return errorObject(HttpStatus.INTERNAL_SERVER_ERROR, 'The request could not be answered');
}

/**
 * Answers a failed portal request (guards included: 401, 403, 406, 415) with a JSON:API error
 * document. Server faults are logged here and never described to the client.
 */
export function sendJsonApiError(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const error = errorOf(exception);
  const requestId = requestIdOf(request.raw);
  if (requestId !== undefined) error.meta = { requestId };
  if (error.status === String(HttpStatus.INTERNAL_SERVER_ERROR)) {
    logger.error({ req: request.raw, err: exception, msg: 'A portal request failed' });
  }
  if (reply.raw.headersSent) {
    reply.raw.end();
    return;
  }
  sendDocument(reply, Number(error.status), { errors: [error] });
}
