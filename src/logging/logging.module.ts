import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AppLoggerModule } from './app-logger';
import { ImportLogController } from './import-log.controller';
import { ImportLogService } from './import-log.service';

/**
 * Application logs (`AppLoggerModule`, global through nestjs-pino) and the stored import logs.
 * Import-log services and controllers are added to this module's own lists.
 */
@Module({
  imports: [AppLoggerModule, AuthModule],
  controllers: [ImportLogController],
  providers: [ImportLogService],
  exports: [ImportLogService],
})
export class LoggingModule {}
