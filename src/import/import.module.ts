import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ImportJobsModule } from '../import-jobs/import-jobs.module';
import { ImportLogsModule } from '../import-logs/import-logs.module';
import { FormatRegistry } from './format-registry';
import { FormatsModule } from './formats/formats.module';
import { ImportController } from './import.controller';
import { ImportService } from './import.service';
import { ImportExecution } from './running/import-execution';
import { ImportRunner, InlineImportRunner } from './running/import-runner';
import { ThreadImportRunner } from './running/thread-import-runner';
import { LeftoverCleanup } from './sources/leftovers';

/**
 * `POST /import/<format>`: the import run shared by every format reader, run as a job in the
 * import worker's thread (or in process, with `IMPORT_RUNNER=inline`).
 */
@Module({
  imports: [DiscoveryModule, AuthModule, ImportLogsModule, FormatsModule, ImportJobsModule],
  controllers: [ImportController],
  providers: [
    FormatRegistry,
    ImportExecution,
    ImportService,
    LeftoverCleanup,
    {
      provide: ImportRunner,
      inject: [APP_CONFIG, ImportExecution],
      useFactory: (config: AppConfig, execution: ImportExecution): ImportRunner =>
        config.import.runner === 'inline'
          ? new InlineImportRunner(execution)
          : new ThreadImportRunner(config, {
              resourceLimits: { maxOldGenerationSizeMb: config.import.workerMaxHeapMb },
            }),
    },
  ],
  exports: [ImportService],
})
export class ImportModule {}
