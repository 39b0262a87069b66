import { Module } from '@nestjs/common';
import { CoreferencesModule } from './coreferences/coreferences.module';
import { CsvModule } from './csv/csv.module';
import { EacModule } from './eac/eac.module';
import { EadModule } from './ead/ead.module';
import { EadSyncModule } from './ead-sync/ead-sync.module';
import { EagModule } from './eag/eag.module';
import { FormatDeclaration, FormatModule } from './format-reader';
import { LinksModule } from './links/links.module';
import { SkosModule } from './skos/skos.module';

/**
 * The application's import formats, one line each, in the order the documentation lists them. A
 * format's folder provides its reader, decorated with `@ImportFormat()`, through a module that
 * carries its declaration; listing that module here is all it takes for `POST /import/<name>`,
 * the OpenAPI document and the command line to serve it.
 */
const FORMAT_MODULES: readonly FormatModule[] = [
  EadModule,
  EadSyncModule,
  EagModule,
  EacModule,
  SkosModule,
  CsvModule,
  LinksModule,
  CoreferencesModule,
];

/** What the formats say of themselves, in the registry's order. */
export const IMPORT_FORMATS: readonly FormatDeclaration[] = FORMAT_MODULES.map((module) => module.format);

/** The declaration of the format named `name`, if there is one. */
export function importFormatNamed(name: string): FormatDeclaration | undefined {
  return IMPORT_FORMATS.find((format) => format.name === name);
}

@Module({ imports: [...FORMAT_MODULES] })
export class FormatsModule {}
