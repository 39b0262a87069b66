import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { ImportLogsModule } from '../import-logs/import-logs.module';
import { FormatRegistry } from './format-registry';
import { FormatsModule } from './formats/formats.module';
import { ImportController } from './import.controller';
import { ImportService } from './import.service';
import { LeftoverCleanup } from './sources/leftovers';

/** `POST /import/<format>`: the import run shared by every format reader. */
@Module({
  imports: [DiscoveryModule, AuthModule, ImportLogsModule, FormatsModule],
  controllers: [ImportController],
  providers: [FormatRegistry, ImportService, LeftoverCleanup],
})
export class ImportModule {}
