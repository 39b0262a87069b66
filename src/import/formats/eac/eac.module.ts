import { Module } from '@nestjs/common';
import { EacReader } from './eac.reader';

/** The EAC-CPF import format (`POST /import/eac`). */
@Module({ providers: [EacReader] })
export class EacModule {}
