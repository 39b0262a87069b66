import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppConfigModule } from './config/config.module';
import { GraphModule } from './graph/graph.module';
import { HealthModule } from './health/health.module';
import { ImportModule } from './import/import.module';
import { ItemsModule } from './items/items.module';
import { LoggingModule } from './logging/logging.module';
import { PortalModule } from './portal/portal.module';

@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    GraphModule,
    ItemsModule,
    AuthModule,
    HealthModule,
    PortalModule,
    ImportModule,
  ],
})
export class AppModule {}
