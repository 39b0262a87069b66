import { Module } from '@nestjs/common';
import { ImportModule } from '../import/import.module';
import { NamedItemsModule } from '../named-items/named-items.module';
import { ObservabilityModule } from '../observability/observability.module';
import { ShutdownModule } from '../shutdown/shutdown.module';
import { CliModule } from './cli.module';

/**
 * The command line's import: the same import run, jobs and stored logs as the server's (and its
 * metrics, which the import records, here for this process alone), and the countries (scopes of
 * EAG imports) that a store the server never opened lacks.
 */
@Module({
  imports: [CliModule, ObservabilityModule, ShutdownModule, NamedItemsModule, ImportModule],
})
export class CliImportModule {}
