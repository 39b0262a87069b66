import { Module } from '@nestjs/common';
import { ImportModule } from '../import/import.module';
import { ItemsModule } from '../items/items.module';
import { CliModule } from './cli.module';

/**
 * The command line's import: the same import run, jobs and stored logs as the server's, and the
 * countries (scopes of EAG imports) that a store the server never opened lacks.
 */
@Module({
  imports: [CliModule, ItemsModule, ImportModule],
})
export class CliImportModule {}
