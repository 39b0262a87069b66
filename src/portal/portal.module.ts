import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
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
    consumer.apply(portalCors).forRoutes({ path: 'api/{*path}', method: RequestMethod.ALL });
  }
}
