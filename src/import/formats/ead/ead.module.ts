import { Module } from '@nestjs/common';
import { EAD_FORMAT, EadReader } from './ead.reader';

/** The EAD import format (`POST /import/ead`); its reader also reads for the EAD sync. */
@Module({
  providers: [EadReader],
  exports: [EadReader],
})
export class EadModule {
  static readonly format = EAD_FORMAT;
}
