import { Module } from '@nestjs/common';
import { EadModule } from '../ead/ead.module';
import { EAD_SYNC_FORMAT, EadSyncReader } from './ead-sync.reader';

/** The EAD sync format (`POST /import/ead-sync`), reading EAD with the EAD format's reader. */
@Module({ imports: [EadModule], providers: [EadSyncReader] })
export class EadSyncModule {
  static readonly format = EAD_SYNC_FORMAT;
}
