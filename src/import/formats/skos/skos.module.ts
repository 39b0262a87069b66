import { Module } from '@nestjs/common';
import { SKOS_FORMAT, SkosReader } from './skos.reader';

/** The SKOS import format (`POST /import/skos`). */
@Module({ providers: [SkosReader] })
export class SkosModule {
  static readonly format = SKOS_FORMAT;
}
