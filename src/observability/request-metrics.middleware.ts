import { Injectable, NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MetricsService } from './metrics.service';

/** Counts every answered request with its status and time. */
@Injectable()
export class RequestMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(request: IncomingMessage, response: ServerResponse, next: () => void): void {
    const started = process.hrtime.bigint();
    response.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // Optional in Node's type, which answers to a client share: a server's request has one.
      this.metrics.recordRequest(request.method ?? '', response.statusCode, seconds);
    });
    next();
  }
}
