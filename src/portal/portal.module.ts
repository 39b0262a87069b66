import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { PortalController } from './portal.controller';
import { portalCors } from './portal-cors.middleware';
import { PortalService } from './portal.service';

/** The portal read API v1 (`/api/v1`, JSON:API), with CORS on `/api` and nowhere else. */
@Module({
  controllers: [PortalController],
  providers: [PortalService],
  exports: [PortalService],
})
export class PortalModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // `/api` and every path below it, whatever the method: a middleware runs before routing, so
    // it also answers preflights, which no route does.
    consumer.apply(portalCors).forRoutes('api{/*path}');
  }
}
