import { ImportInputError, ImportSource } from '../../formats/format-reader';
import { isBlank, readCsvRecords } from './csv-records';

/** One row of an uploaded table (links, coreferences): its cells, trimmed. */
export interface TableRow {
  /** 1-based: the first row of the table is row 1. */
  row: number;
  cells: string[];
}

const CSV_TYPE = 'text/csv';
const JSON_TYPE = 'application/json';
const CSV_DELIMITER = ',';

function isJson(mediaType: string): boolean {
  return mediaType === JSON_TYPE || mediaType.endsWith('+json');
}

function inputError(source: ImportSource, message: string, row?: number): ImportInputError {
  return new ImportInputError(message, {
    tag: source.tag,
    key: row === undefined ? undefined : `row ${row}`,
  });
}

async function textOf(source: ImportSource): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.bytes()) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON cell as text: strings as they are, `null` as a blank cell. */
function jsonCell(source: ImportSource, value: unknown, row: number, column: number): string {
  if (value === null) return '';
  if (typeof value !== 'string') {
    throw inputError(
      source,
      `Row ${row}, column ${column}: expected a string, got ${JSON.stringify(value)}`,
      row,
    );
  }
  return value;
}

/** The rows of a JSON array of arrays of strings, parsed whole: such tables are small. */
async function jsonRows(source: ImportSource): Promise<TableRow[]> {
  let table: unknown;
  try {
    table = JSON.parse(await textOf(source));
  } catch (error) {
    throw inputError(source, `The table is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(table)) throw inputError(source, 'The table must be a JSON array of rows');
  return table.map((cells: unknown, index) => {
    const row = index + 1;
    if (!Array.isArray(cells)) throw inputError(source, `Row ${row}: expected an array of cells`, row);
    return { row, cells: cells.map((cell: unknown, column) => jsonCell(source, cell, row, column + 1)) };
  });
}

/**
 * The rows of a table sent as a JSON array of rows (`application/json`) or as CSV without a
 * header (`text/csv`), as the reference's `Table` reads them. Blank rows are skipped.
 */
export async function* readTableRows(source: ImportSource): AsyncGenerator<TableRow> {
  const mediaType = source.contentType ?? '';
  let rows: AsyncIterable<TableRow> | Iterable<TableRow>;
  if (isJson(mediaType)) rows = await jsonRows(source);
  else if (mediaType === CSV_TYPE) rows = readCsvRecords(source, CSV_DELIMITER);
  else {
    throw inputError(
      source,
      `A table is sent as ${JSON_TYPE} or ${CSV_TYPE}, not as "${mediaType || 'no type'}"`,
    );
  }
  for await (const { row, cells } of rows) {
    const trimmed = cells.map((cell) => cell.trim());
    if (!isBlank(trimmed)) yield { row, cells: trimmed };
  }
}
