import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PortalModule } from '../portal/portal.module';
import { EacExportController } from './eac/eac.controller';
import { EagExportController } from './eag/eag.controller';
import { ExportItems } from './export-items';
import { SkosExportController } from './skos/skos.controller';
import { DublinCoreController } from './dc/dc.controller';
import { OaiController } from './oai/oai.controller';
import { OaiProvider } from './oai/oai-provider';
import { EadExportController } from './ead/ead-export.controller';
import { EadExporter } from './ead/ead-exporter';

/**
 * Exports in the standards the service imports (`/export/...`) and the OAI-PMH provider (`/oai`):
 * each format's controller and writer in a folder of its own here.
 */
@Module({
  imports: [AuthModule, PortalModule],
  controllers: [
    EadExportController,
    EagExportController,
    EacExportController,
    SkosExportController,
    DublinCoreController,
    OaiController,
  ],
  providers: [EadExporter, ExportItems, OaiProvider],
  exports: [EadExporter, ExportItems],
})
export class ExportModule {}
