import { Module } from '@nestjs/common';
import { CoreferencesModule } from './coreferences/coreferences.module';
import { CsvModule } from './csv/csv.module';
import { EacModule } from './eac/eac.module';
import { EadModule } from './ead/ead.module';
import { EadSyncModule } from './ead-sync/ead-sync.module';
import { EagModule } from './eag/eag.module';
import { LinksModule } from './links/links.module';
import { SkosModule } from './skos/skos.module';

/**
 * The application's import formats. A format's folder provides its reader, decorated with
 * `@ImportFormat()`; listing the reader (or the format's own module) here is all it takes for
 * `POST /import/<name>` to serve it.
 */
@Module({
  imports: [
    EacModule,
    EadModule,
    EadSyncModule,
    EagModule,
    SkosModule,
    LinksModule,
    CoreferencesModule,
    CsvModule,
  ],
  providers: [],
})
export class FormatsModule {}
