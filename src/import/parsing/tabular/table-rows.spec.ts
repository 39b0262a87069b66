import { ImportInputError, ImportSource } from '../../formats/format-reader';
import { readTableRows, TableRow } from './table-rows';

function sourceOf(body: string, contentType?: string): ImportSource {
  return {
    tag: '-',
    contentType,
    async *bytes() {
      yield Buffer.from(body, 'utf8');
    },
  };
}

async function rows(source: ImportSource): Promise<TableRow[]> {
  const all: TableRow[] = [];
  for await (const row of readTableRows(source)) all.push(row);
  return all;
}

describe('readTableRows', () => {
  it('reads a JSON array of rows, trimming cells and taking null as a blank cell', async () => {
    const body = JSON.stringify([
      ['r1', ' c1 ', null],
      ['', ''],
      ['r4', 'c4', 'ur4'],
    ]);
    expect(await rows(sourceOf(body, 'application/json'))).toEqual([
      { row: 1, cells: ['r1', 'c1', ''] },
      { row: 3, cells: ['r4', 'c4', 'ur4'] },
    ]);
  });

  it('reads CSV without a header row', async () => {
    const body = 'r1,c1,,associative,,"Test, with comma"\n r4 ,c4,,copy,,\n';
    expect(await rows(sourceOf(body, 'text/csv'))).toEqual([
      { row: 1, cells: ['r1', 'c1', '', 'associative', '', 'Test, with comma'] },
      { row: 2, cells: ['r4', 'c4', '', 'copy', '', ''] },
    ]);
  });

  it.each([
    ['malformed JSON', '[["a", "b"]', /The table is not valid JSON/],
    ['a JSON object', '{"a": "b"}', /The table must be a JSON array of rows/],
    ['a row that is not an array', '[["a"], "b"]', /Row 2: expected an array of cells/],
    ['a cell that is not a string', '[["a", 3]]', /Row 1, column 2: expected a string, got 3/],
  ])('refuses %s', async (_what, body, message) => {
    const error = await rows(sourceOf(body, 'application/json')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ImportInputError);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a body that is neither JSON nor CSV', async () => {
    await expect(rows(sourceOf('a,b', 'text/plain'))).rejects.toThrow(
      'A table is sent as application/json or text/csv, not as "text/plain"',
    );
  });
});
