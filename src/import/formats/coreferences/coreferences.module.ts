import { Module } from '@nestjs/common';
import { COREFERENCES_FORMAT, CoreferencesReader } from './coreferences.reader';

/** The coreference table import format (`POST /import/coreferences`). */
@Module({ providers: [CoreferencesReader] })
export class CoreferencesModule {
  static readonly format = COREFERENCES_FORMAT;
}
