import { Module } from '@nestjs/common';
import { CSV_FORMAT, CsvReader } from './csv.reader';

/** The CSV import format (`POST /import/csv`). */
@Module({ providers: [CsvReader] })
export class CsvModule {
  static readonly format = CSV_FORMAT;
}
