import { Injectable } from '@nestjs/common';
import { ItemType } from '../../../items/item-types';
import {
  FormatDeclaration,
  FormatReader,
  ImportContext,
  ImportFormat,
  ImportInputError,
  ImportSource,
  ReadEvent,
} from '../format-reader';
import { readCsvRecords } from '../../parsing/tabular/csv-records';
import { checkScope, CSV_KINDS, csvKind } from './csv-kinds';
import { choiceParameter, singleParameter } from '../format-params';
import {
  DUPLICATE_UNITID,
  DUPLICATE_UNITID_PARAMETER,
  DUPLICATE_UNITID_POLICIES,
} from '../../building/sibling-ids';
import { csvRow, csvSeparators, headerFields, csvRowRejection, SEPARATOR_PARAMETERS } from './csv-row';

export const CSV_FORMAT: FormatDeclaration = {
  name: 'csv',
  summary:
    "a table whose header names the reference's fields: units, agents or countries (importer), one item a row",
  input: 'raw',
  parameters: [...SEPARATOR_PARAMETERS, DUPLICATE_UNITID_PARAMETER],
};

/**
 * `POST /import/csv`: one item per row of a table whose header row names the reference's fields
 * (`objectIdentifier`, `name`, `scopeAndContent`, …), as the reference's `CsvImportManager`. The
 * `importer` parameter chooses the item type (see `CSV_KINDS`; documentary units by default).
 * The table is read row by row, never whole.
 */
@Injectable()
@ImportFormat()
export class CsvReader implements FormatReader {
  readonly name = CSV_FORMAT.name;
  readonly classNames = ['csv', ...CSV_KINDS.flatMap((kind) => [kind.name, ...kind.classNames])];
  readonly scopeTypes: readonly ItemType[] = [...new Set(CSV_KINDS.flatMap((kind) => kind.scopeTypes))];
  readonly input = CSV_FORMAT.input;

  async *read(source: ImportSource, context: ImportContext): AsyncIterable<ReadEvent> {
    const kind = csvKind(singleParameter(context.params.query, 'importer'));
    const separators = csvSeparators(context.params.query);
    checkScope(kind, context.scope);
    const records = readCsvRecords(source, separators.field);
    const header = await records.next();
    if (header.done === true)
      throw new ImportInputError(`${source.tag} has no header row`, { tag: source.tag });
    const fields = headerFields(header.value, source.tag);
    const rows = kind.rows({
      fields,
      scope: context.scope,
      lang: context.params.lang,
      tag: source.tag,
      store: context.store,
      duplicateUnitId: choiceParameter(context.params.query, DUPLICATE_UNITID, DUPLICATE_UNITID_POLICIES),
    });
    for await (const record of records) {
      const row = csvRow(fields, record, separators, source.tag);
      yield row === undefined
        ? csvRowRejection(
            { tag: source.tag, row: record.row },
            undefined,
            `${record.cells.length} cells, but the header names ${fields.length} columns`,
          )
        : await rows.event(row);
    }
  }
}
