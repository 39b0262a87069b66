import { Module } from '@nestjs/common';
import { EagReader } from './eag.reader';

/** The EAG import format (`POST /import/eag`). */
@Module({ providers: [EagReader] })
export class EagModule {}
