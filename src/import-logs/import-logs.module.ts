import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ImportLogController } from './import-log.controller';
import { ImportLogService } from './import-log.service';

/** The stored import logs: what each import run did, kept for operators (`GET /import/logs`). */
@Module({
  imports: [AuthModule],
  controllers: [ImportLogController],
  providers: [ImportLogService],
  exports: [ImportLogService],
})
export class ImportLogsModule {}
