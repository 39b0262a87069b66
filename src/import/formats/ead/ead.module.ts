import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { ReadMemos } from '../../reading/read-memos';
import { EadReader } from './ead.reader';

/** The EAD import format (`POST /import/ead`); its reader also reads for the EAD sync. */
@Module({
  providers: [
    EadReader,
    {
      provide: ReadMemos,
      useFactory: ({ import: settings }: AppConfig) =>
        new ReadMemos({ folder: settings.readMemoDir, maxBytes: settings.readMemoMaxBytes }),
      inject: [APP_CONFIG],
    },
  ],
  exports: [EadReader],
})
export class EadModule {}
