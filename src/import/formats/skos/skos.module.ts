import { Module } from '@nestjs/common';
import { SkosReader } from './skos.reader';

/** The SKOS import format (`POST /import/skos`). */
@Module({ providers: [SkosReader] })
export class SkosModule {}
