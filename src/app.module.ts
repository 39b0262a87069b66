import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { AppConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { ExportModule } from './export/export.module';
import { GraphModule } from './graph/graph.module';
import { HealthModule } from './health/health.module';
import { ImportLogsModule } from './import-logs/import-logs.module';
import { ImportModule } from './import/import.module';
import { InterfaceErrorFilter } from './http/interface-errors';
import { NamedItemsModule } from './named-items/named-items.module';
import { ObservabilityModule } from './observability/observability.module';
import { PortalModule } from './portal/portal.module';
import { ShutdownModule } from './shutdown/shutdown.module';
import { StartModule } from './start/start.module';

@Module({
  imports: [
    AppConfigModule,
    ShutdownModule,
    ObservabilityModule,
    GraphModule,
    NamedItemsModule,
    AuthModule,
    HealthModule,
    PortalModule,
    ExportModule,
    ImportModule,
    ImportLogsModule,
    ConsoleModule,
    StartModule,
  ],
  providers: [{ provide: APP_FILTER, useClass: InterfaceErrorFilter }],
})
export class AppModule {}
