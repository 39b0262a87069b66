import { Module } from '@nestjs/common';
import { CsvReader } from './csv.reader';

/** The CSV import format (`POST /import/csv`). */
@Module({ providers: [CsvReader] })
export class CsvModule {}
