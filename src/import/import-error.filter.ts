import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBodyOf } from './import-errors';

/** Renders every error of the import interface and the import-log endpoints as `ErrorBody`. */
@Catch()
export class ImportErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(ImportErrorFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const body = errorBodyOf(exception);
    if (body.status === HttpStatus.INTERNAL_SERVER_ERROR) {
      this.logger.error({
        req: http.getRequest<FastifyRequest>().raw,
        err: exception,
        msg: 'An import request failed',
      });
    }
    const reply = http.getResponse<FastifyReply>();
    if (!reply.raw.headersSent) void reply.code(body.status).send(body);
  }
}
