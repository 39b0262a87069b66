import { Module } from '@nestjs/common';
import { EAG_FORMAT, EagReader } from './eag.reader';

/** The EAG import format (`POST /import/eag`). */
@Module({ providers: [EagReader] })
export class EagModule {
  static readonly format = EAG_FORMAT;
}
