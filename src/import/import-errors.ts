import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { StoreUnavailableError } from '../graph/store-errors';
import { JobCancelled } from '../import-jobs/job-cancelled';
import { ErrorBody } from '../import-logs/import-log.types';
import { requestIdOf } from '../observability/request-log.middleware';
import { ImportInputError } from './formats/format-reader';

/** An import refused with a status and the `details` of its error body. */
export class ImportHttpError extends HttpException {
  constructor(
    status: number,
    readonly details: ErrorBody['details'],
  ) {
    super(typeof details === 'string' ? details : details.message, status);
  }
}

/**
 * An import cancelled because the service is shutting down: rolled back, and logged as
 * `interrupted` when it was to commit. 503, as the service is about to be unavailable.
 */
export class ImportInterruptedError extends ImportHttpError {
  constructor() {
    super(HttpStatus.SERVICE_UNAVAILABLE, 'The import was interrupted: the service is shutting down');
  }
}

/**
 * An import whose worker thread stopped under it (past its heap limit, most likely): rolled back
 * with the worker, which could store nothing, so the HTTP side stores its failure.
 */
export class ImportWorkerStoppedError extends ImportHttpError {
  constructor(why: string, outOfMemory: boolean) {
    super(
      outOfMemory ? HttpStatus.PAYLOAD_TOO_LARGE : HttpStatus.INTERNAL_SERVER_ERROR,
      outOfMemory
        ? 'The import needed more memory than its worker may use (IMPORT_WORKER_MAX_HEAP_MB); nothing was written'
        : `The import worker stopped (${why}); nothing was written`,
    );
  }
}

/**
 * A committed import whose token was revoked before it committed: rolled back, and its stored log
 * (outcome `failed`) carries this error. 401, as for any request with a revoked token.
 */
export class TokenRevokedError extends ImportHttpError {
  constructor(tokenId: string) {
    super(
      HttpStatus.UNAUTHORIZED,
      `The import's token (id ${tokenId}) was revoked before the import committed; nothing was written`,
    );
  }
}

/**
 * An import refused before its body is read, its queue being full (`QueueBound`): 429 when its
 * user holds too much, 503 when the service does; `Retry-After` says when to try again.
 */
export class QueueFullError extends ImportHttpError {
  constructor(
    status: number,
    details: string,
    readonly retryAfterSeconds: number,
  ) {
    super(status, details);
  }
}

/** An import refused because the service is shutting down. */
export function shuttingDown(): ImportHttpError {
  return new ImportHttpError(HttpStatus.SERVICE_UNAVAILABLE, 'The service is shutting down');
}

export function badRequest(details: ErrorBody['details']): ImportHttpError {
  return new ImportHttpError(HttpStatus.BAD_REQUEST, details);
}

export function forbidden(message: string): ImportHttpError {
  return new ImportHttpError(HttpStatus.FORBIDDEN, message);
}

export function notFound(message: string): ImportHttpError {
  return new ImportHttpError(HttpStatus.NOT_FOUND, message);
}

export function tooLarge(message: string): ImportHttpError {
  return new ImportHttpError(HttpStatus.PAYLOAD_TOO_LARGE, message);
}

function bodyOf(status: number, details: ErrorBody['details']): ErrorBody {
  return { status, error: STATUS_CODES[status] ?? 'Error', details };
}

/** Nest's own exceptions (the auth guard's) carry `{ message }` or a string. */
function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
}

/**
 * The error body for anything an import (or an import-log request) throws. Input errors from a
 * reader become 400 with where they happened; anything unexpected is a 500 whose details reveal
 * nothing of the server.
 */
export function errorBodyOf(exception: unknown): ErrorBody {
  if (exception instanceof ImportHttpError) return bodyOf(exception.getStatus(), exception.details);
  if (exception instanceof ImportInputError) {
    const where = Object.fromEntries(
      Object.entries(exception.where).filter(([, value]) => value !== undefined),
    );
    return bodyOf(HttpStatus.BAD_REQUEST, { message: exception.message, ...where });
  }
  if (exception instanceof HttpException) {
    return bodyOf(exception.getStatus(), messageOf(exception));
  }
  // A store lost before the import began (its user or scope read), where no write could explain it.
  if (exception instanceof StoreUnavailableError) {
    return bodyOf(HttpStatus.SERVICE_UNAVAILABLE, exception.message);
  }
  if (exception instanceof JobCancelled) {
    return bodyOf(HttpStatus.CONFLICT, `The import was cancelled and rolled back: ${exception.message}`);
  }
  return bodyOf(HttpStatus.INTERNAL_SERVER_ERROR, 'The import failed because of a server error');
}

// Named as the filter that wrote these lines before, which log searches may name.
const logger = new Logger('ImportErrorFilter');

/**
 * Answers a failed import (or import-log) request with its `ErrorBody`; server faults are logged.
 * An answer already begun (an import's streamed answer) is left to the code writing it.
 */
export function sendImportError(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const body: ErrorBody = { ...errorBodyOf(exception), requestId: requestIdOf(request.raw) };
  if (body.status === HttpStatus.INTERNAL_SERVER_ERROR) {
    logger.error({ req: request.raw, err: exception, msg: 'An import request failed' });
  }
  if (reply.raw.headersSent) return;
  if (exception instanceof QueueFullError) void reply.header('Retry-After', exception.retryAfterSeconds);
  void reply.code(body.status).send(body);
}
