import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { errorBodyOf } from './import-errors';

/** Renders every error of the import interface and the import-log endpoints as `ErrorBody`. */
@Catch()
export class ImportErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(ImportErrorFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const body = errorBodyOf(exception);
    if (body.status === HttpStatus.INTERNAL_SERVER_ERROR) {
      this.logger.error({ req: http.getRequest(), err: exception, msg: 'An import request failed' });
    }
    const response = http.getResponse<Response>();
    if (!response.headersSent) response.status(body.status).json(body);
  }
}
