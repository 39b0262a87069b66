import { GraphReader } from '../../../graph/graph-store';
import { ImportContext, ReadEvent } from '../format-reader';
import { CsvRow } from './csv-row';
import { DuplicateUnitIdPolicy } from '../../building/sibling-ids';

export type CsvScope = NonNullable<ImportContext['scope']>;

/** What a CSV import knows before its first data row. */
export interface RowSettings {
  /** The header's field names, by column. */
  fields: readonly string[];
  /** The scope, of a type the item type takes. */
  scope: CsvScope | undefined;
  /** The default description language (ISO 639-2/T). */
  lang: string;
  tag: string;
  /** The import's transaction. */
  store: GraphReader;
  /** What to do with a unit whose id an earlier row's unit has (`duplicate-unitid`). */
  duplicateUnitId: DuplicateUnitIdPolicy;
}

/** Turns the data rows of one CSV document into items of one type, or their rejections. */
export interface RowImporter {
  event(row: CsvRow): ReadEvent | Promise<ReadEvent>;
}

/** The scope a row importer was given; its kind's scope types make sure there is one. */
export function scopeOf(settings: RowSettings): CsvScope {
  if (settings.scope === undefined) throw new Error('A scope was expected: the CSV kind takes one');
  return settings.scope;
}
