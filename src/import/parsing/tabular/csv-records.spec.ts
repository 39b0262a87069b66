import { ImportInputError, ImportSource } from '../../formats/format-reader';
import { CsvRecord, lineBreakOf, readCsvRecords } from './csv-records';
import { chunkedSource } from '../../../../test/support/chunked-source';

/** A source delivering `text` as UTF-8 in chunks of `size` bytes. */
function sourceOf(text: string | Buffer, size = 1024): ImportSource {
  return chunkedSource(text, 'table.csv', size);
}

async function records(source: ImportSource, delimiter = ','): Promise<CsvRecord[]> {
  const all: CsvRecord[] = [];
  for await (const record of readCsvRecords(source, delimiter)) all.push(record);
  return all;
}

const DOCUMENT = 'id,name,notes\r\n1,Łódź ghetto,"a ""quoted""\r\nnote, with comma"\r\n2,Theresienstadt,\r\n';

describe('readCsvRecords', () => {
  it('reads records with quoted cells, escaped quotes and line breaks inside cells', async () => {
    expect(await records(sourceOf(DOCUMENT))).toEqual([
      { row: 1, cells: ['id', 'name', 'notes'] },
      { row: 2, cells: ['1', 'Łódź ghetto', 'a "quoted"\r\nnote, with comma'] },
      { row: 3, cells: ['2', 'Theresienstadt', ''] },
    ]);
  });

  it.each([1, 2, 3, 5, 7])('reads the same records whatever the chunk size (%i bytes)', async (size) => {
    // Chunks of a few bytes split the two-byte letters and the quoted line break.
    expect(await records(sourceOf(DOCUMENT, size))).toEqual(await records(sourceOf(DOCUMENT)));
  });

  it('skips blank lines but counts them, so rows are numbered as a spreadsheet numbers them', async () => {
    expect(await records(sourceOf('a,b\n\n,\nc,d'))).toEqual([
      { row: 1, cells: ['a', 'b'] },
      { row: 4, cells: ['c', 'd'] },
    ]);
  });

  it('splits on the given delimiter and takes old Mac line breaks', async () => {
    expect(await records(sourceOf('a;b,c\rd;e'), ';')).toEqual([
      { row: 1, cells: ['a', 'b,c'] },
      { row: 2, cells: ['d', 'e'] },
    ]);
  });

  it('reads a document of one record without a line break', async () => {
    expect(await records(sourceOf('only,record'))).toEqual([{ row: 1, cells: ['only', 'record'] }]);
  });

  it('strips a byte order mark', async () => {
    expect(await records(sourceOf('\uFEFFid,name\n'))).toEqual([{ row: 1, cells: ['id', 'name'] }]);
  });

  it('refuses an unterminated quoted cell, naming the row', async () => {
    const error = await records(sourceOf('a,b\nc,"d\ne,f\n', 4)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ImportInputError);
    expect(error).toMatchObject({
      message: 'Malformed CSV in table.csv, row 2: Quoted field unterminated',
      where: { tag: 'table.csv', key: 'row 2' },
    });
  });

  it('refuses text that is not UTF-8', async () => {
    const latin1 = Buffer.from('id,name\n1,Dachau M\xfcnchen\n', 'latin1');
    await expect(records(sourceOf(latin1))).rejects.toThrow(/table\.csv is not UTF-8 text/);
  });
});

describe('lineBreakOf', () => {
  it('finds the first line break outside quotes', () => {
    expect(lineBreakOf('"a\nb",c\r\nd')).toBe('\r\n');
    expect(lineBreakOf('a\nb')).toBe('\n');
    expect(lineBreakOf('a\rb')).toBe('\r');
  });

  it('cannot tell before a line break, nor from a carriage return that ends the text', () => {
    expect(lineBreakOf('a,b')).toBeUndefined();
    expect(lineBreakOf('a,b\r')).toBeUndefined();
  });
});
