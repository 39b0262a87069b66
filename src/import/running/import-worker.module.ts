import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { GraphModule } from '../../graph/graph.module';
import { ImportLogService } from '../../import-logs/import-log.service';
import { FormatRegistry } from '../format-registry';
import { FormatsModule } from '../formats/formats.module';
import { ImportExecution } from './import-execution';

@Global()
@Module({})
class WorkerConfigModule {
  static of(config: AppConfig): DynamicModule {
    return {
      module: WorkerConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}

/**
 * What the import worker runs: the import run with the application's formats, on a store
 * connection of its own (to the same `GRAPH_URL`), configured as the process that started it.
 */
@Module({})
export class ImportWorkerModule {
  static of(config: AppConfig): DynamicModule {
    return {
      module: ImportWorkerModule,
      imports: [WorkerConfigModule.of(config), GraphModule, DiscoveryModule, FormatsModule],
      providers: [FormatRegistry, ImportLogService, ImportExecution],
    };
  }
}
