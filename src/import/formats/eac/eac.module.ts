import { Module } from '@nestjs/common';
import { EAC_FORMAT, EacReader } from './eac.reader';

/** The EAC-CPF import format (`POST /import/eac`). */
@Module({ providers: [EacReader] })
export class EacModule {
  static readonly format = EAC_FORMAT;
}
