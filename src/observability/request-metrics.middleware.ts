import { Injectable, NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MetricsService, UNMATCHED_ROUTE } from './metrics.service';

/** A request with the template of the route that matched it, set by `noteRouteTemplates`. */
export type RoutedRequest = IncomingMessage & { routeTemplate?: string };

/** Times every answered request, by method, route template and status. */
@Injectable()
export class RequestMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(request: RoutedRequest, response: ServerResponse, next: () => void): void {
    const started = process.hrtime.bigint();
    response.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // Optional in Node's type, which answers to a client share: a server's request has one.
      const method = request.method ?? '';
      this.metrics.recordRequest(
        method,
        request.routeTemplate ?? UNMATCHED_ROUTE,
        response.statusCode,
        seconds,
      );
    });
    next();
  }
}
