import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { AppConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { GraphModule } from './graph/graph.module';
import { HealthModule } from './health/health.module';
import { ImportModule } from './import/import.module';
import { InterfaceErrorFilter } from './interface-errors';
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
    ConsoleModule,
  ],
  providers: [{ provide: APP_FILTER, useClass: InterfaceErrorFilter }],
})
export class AppModule {}
