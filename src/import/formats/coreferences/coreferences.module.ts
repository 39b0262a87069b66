import { Module } from '@nestjs/common';
import { CoreferencesReader } from './coreferences.reader';

/** The coreference table import format (`POST /import/coreferences`). */
@Module({ providers: [CoreferencesReader] })
export class CoreferencesModule {}
