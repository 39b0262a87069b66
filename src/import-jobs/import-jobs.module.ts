import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { HealthModule } from '../health/health.module';
import { ImportLogsModule } from '../import-logs/import-logs.module';
import { ImportJobsController } from './import-jobs.controller';
import { ImportJobsService } from './import-jobs.service';

/** `/import/jobs`: every import as a job, with its progress, events and cancel. */
@Module({
  imports: [AuthModule, HealthModule, ImportLogsModule],
  controllers: [ImportJobsController],
  providers: [ImportJobsService],
  exports: [ImportJobsService],
})
export class ImportJobsModule {}
