import { Module } from '@nestjs/common';
import { EacModule } from './eac/eac.module';
import { SkosModule } from './skos/skos.module';

/**
 * The application's import formats. A format's folder provides its reader, decorated with
 * `@ImportFormat()`; listing the reader (or the format's own module) here is all it takes for
 * `POST /import/<name>` to serve it.
 */
@Module({
  imports: [EacModule, SkosModule],
  providers: [],
})
export class FormatsModule {}
