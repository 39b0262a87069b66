import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AppLoggerModule } from './app-logger';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { RequestLogMiddleware } from './request-log.middleware';
import { RequestMetricsMiddleware } from './request-metrics.middleware';

/**
 * What operators watch: application logs (`AppLoggerModule`, global through nestjs-pino) with a
 * line per request (`RequestLogMiddleware`) and the metrics served at `/metrics`.
 *
 * Global: Nest mounts global modules' middleware before any other module's, so the request log
 * and the metrics see every request, those another module's middleware answers itself (a CORS
 * preflight) included. As a module that others import, it came after them.
 */
@Global()
@Module({
  imports: [AppLoggerModule, AuthModule],
  controllers: [MetricsController],
  // The request log and metrics are providers too, for the requests that the router answers
  // itself (interface-errors.ts).
  providers: [MetricsService, RequestLogMiddleware, RequestMetricsMiddleware],
  exports: [MetricsService, RequestLogMiddleware, RequestMetricsMiddleware],
})
export class ObservabilityModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Every path, the root and unknown paths included (the braces make the wildcard optional).
    consumer.apply(RequestLogMiddleware, RequestMetricsMiddleware).forRoutes('{*path}');
  }
}
