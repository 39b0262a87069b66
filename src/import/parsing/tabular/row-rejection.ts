import { ItemRejected } from '../../formats/format-reader';

/** Where a rejected row is: its table kind (`CSV`, `Link`, …), source, row and, if known, column. */
export interface RowPlace {
  table: string;
  tag: string;
  row: number;
  column?: string;
}

/**
 * A row that cannot become an item, keyed by its row (rows are unique where ids may be missing
 * or repeated): `Link row 4: source item BAD not found`.
 */
export function rowRejection({ table, tag, row, column }: RowPlace, problem: string): ItemRejected {
  const where = column === undefined ? `${table} row ${row}` : `${table} row ${row}, column ${column}`;
  return { kind: 'invalid', tag, key: `row ${row}`, message: `${where}: ${problem}` };
}
