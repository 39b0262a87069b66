import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { PortalController } from './portal.controller';
import { portalCors } from './portal-cors.middleware';
import { PortalService } from './portal.service';

/** The portal read API v1 (`/api/v1`, JSON:API), with CORS on `/api` and nowhere else. */
@Module({
  controllers: [PortalController],
  providers: [PortalService],
})
export class PortalModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // A path, not a route of every method: Nest mounts it as an Express middleware, which the
    // router passes through at less cost than a route of its own on every request.
    consumer.apply(portalCors).forRoutes('api/{*path}');
  }
}
