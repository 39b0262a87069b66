import { PROTOTYPE_KEY } from '../../../items/bundle';
import { RawNode, normaliseSpace } from '../../building/raw-node';
import { FormatParameter, ImportContext, ImportInputError, ItemRejected } from '../format-reader';
import { singleParameter } from '../format-params';
import { CsvRecord } from '../../parsing/tabular/csv-records';
import { rowRejection } from '../../parsing/tabular/row-rejection';
import { languageCodeOfName, scriptCodeOf } from './language-names';

/** One data row of a CSV import: its fields as raw data, keyed by the header's field names. */
export interface CsvRow {
  /** The source's tag. */
  tag: string;
  /** 1-based, the header being row 1. */
  row: number;
  node: RawNode;
}

/** How a CSV document is cut: the reference's `field-separator` and `array-separator`. */
export interface CsvSeparators {
  field: string;
  array: string;
}

type Query = ImportContext['params']['query'];

const FIELD_SEPARATOR = 'field-separator';
const ARRAY_SEPARATOR = 'array-separator';
/** The separator parameters, as the CSV format declares them. */
export const SEPARATOR_PARAMETERS: readonly FormatParameter[] = [
  { name: FIELD_SEPARATOR, description: 'one character between cells, default ,' },
  { name: ARRAY_SEPARATOR, description: 'separator of the values in one cell, default ||' },
];
const DEFAULTS: CsvSeparators = { field: ',', array: '||' };
/** Characters that cannot separate fields: they end records or quote cells. */
const RESERVED = ['\r', '\n', '"', '\uFEFF'];

/** The `field-separator` (one character, as the reference requires) and `array-separator` parameters. */
export function csvSeparators(query: Query): CsvSeparators {
  const field = singleParameter(query, FIELD_SEPARATOR) ?? DEFAULTS.field;
  if (field.length !== 1 || RESERVED.includes(field)) {
    throw new ImportInputError(
      `Field separator must be a single character other than a quote, found: ${field}`,
    );
  }
  const array = singleParameter(query, ARRAY_SEPARATOR) ?? DEFAULTS.array;
  if (array.includes(field)) {
    throw new ImportInputError(`Array separator "${array}" must not contain the field separator "${field}"`);
  }
  return { field, array };
}

const WHITE_SPACE = /\s/g;
const LANGUAGE_FIELD_PREFIX = 'language';
const SCRIPT_FIELD_PREFIX = 'script';

/** The header's field names; as in the reference, white space inside a name is dropped. */
export function headerFields(record: CsvRecord, tag: string): string[] {
  const fields = record.cells.map((cell) => cell.replace(WHITE_SPACE, ''));
  const where = { tag, key: `row ${record.row}` };
  const blank = fields.indexOf('');
  if (blank !== -1) {
    throw new ImportInputError(`The header row of ${tag} names no field for column ${blank + 1}`, where);
  }
  const reserved = fields.indexOf(PROTOTYPE_KEY);
  if (reserved !== -1) {
    throw new ImportInputError(
      `The header row of ${tag} names column ${reserved + 1} ${PROTOTYPE_KEY}, which no field may be called`,
      where,
    );
  }
  return fields;
}

/** A value as the reference stores it: white space normalised, languages and scripts as codes. */
function normalisedValue(field: string, cell: string): string {
  const value = normaliseSpace(cell);
  if (field.startsWith(LANGUAGE_FIELD_PREFIX)) return languageCodeOfName(value) ?? value;
  if (field.startsWith(SCRIPT_FIELD_PREFIX)) return scriptCodeOf(value) ?? value;
  return value;
}

/**
 * A data record as raw data (the reference's `CsvImportManager`): a cell holding the array
 * separator is several values, empty values are dropped, and a field named by several columns
 * collects all their values. Undefined when the record has more cells than the header names.
 */
export function csvRow(
  fields: readonly string[],
  record: CsvRecord,
  separators: CsvSeparators,
  tag: string,
): CsvRow | undefined {
  if (record.cells.length > fields.length) return undefined;
  const node = new RawNode();
  record.cells.forEach((cell, index) => {
    const field = fields[index];
    const values = cell.includes(separators.array) ? cell.split(separators.array) : [cell];
    for (const value of values) node.putNormalised(field, normalisedValue(field, value));
  });
  return { tag, row: record.row, node };
}

/** A row that cannot become an item: the column at fault, if one is, and why. */
export function csvRowRejection(
  row: { tag: string; row: number },
  column: string | undefined,
  problem: string,
): ItemRejected {
  return rowRejection({ table: 'CSV', tag: row.tag, row: row.row, column }, problem);
}

/**
 * The rejection of a row whose identifier (in `column`) is missing or has an empty slug (`---`),
 * which cannot make an id (`isUsableIdentifier`). `item` names what needs it (`a unit`).
 */
export function missingIdentifier(row: CsvRow, column: string, item: string): ItemRejected {
  const given = row.node.first(column);
  const blank = given === undefined ? '' : ` (${JSON.stringify(given)} slugifies to nothing)`;
  return csvRowRejection(row, column, `missing: ${item} needs an identifier${blank}`);
}
