import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBodyOf } from './import-errors';

const logger = new Logger('ImportErrorFilter');

/** Answers a failed import (or import-log) request with its `ErrorBody`; server faults are logged. */
export function sendImportError(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const body = errorBodyOf(exception);
  if (body.status === HttpStatus.INTERNAL_SERVER_ERROR) {
    logger.error({ req: request.raw, err: exception, msg: 'An import request failed' });
  }
  if (!reply.raw.headersSent) void reply.code(body.status).send(body);
}

/** Renders every error of the import interface and the import-log endpoints as `ErrorBody`. */
@Catch()
export class ImportErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendImportError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}
