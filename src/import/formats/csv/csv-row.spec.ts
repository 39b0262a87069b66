import { ImportInputError } from '../format-reader';
import { csvRow, csvSeparators, headerFields, csvRowRejection } from './csv-row';

const SEPARATORS = { field: ',', array: '||' };

describe('headerFields', () => {
  it('drops white space inside field names, as the reference does', () => {
    expect(headerFields({ row: 1, cells: ['object Identifier', ' name ', 'IGNORE'] }, 't.csv')).toEqual([
      'objectIdentifier',
      'name',
      'IGNORE',
    ]);
  });

  it('refuses a column without a field name', () => {
    expect(() => headerFields({ row: 1, cells: ['objectIdentifier', ' ', 'name'] }, 't.csv')).toThrow(
      'The header row of t.csv names no field for column 2',
    );
  });

  it('refuses a column named __proto__, which no field may be called', () => {
    const header = () => headerFields({ row: 1, cells: ['objectIdentifier', '__proto__'] }, 't.csv');
    expect(header).toThrow(ImportInputError);
    expect(header).toThrow('The header row of t.csv names column 2 __proto__, which no field may be called');
  });
});

describe('csvRow', () => {
  const fields = [
    'objectIdentifier',
    'languageCode',
    'languageOfMaterial',
    'scriptOfMaterial',
    'notes',
    'notes',
  ];

  it('splits cells on the array separator, normalises white space and drops empty values', () => {
    const row = csvRow(
      fields,
      { row: 4, cells: ['u1', '', '', '', ' a  note ||  || another ', 'third'] },
      SEPARATORS,
      't',
    );
    expect(row?.row).toBe(4);
    expect(Object.fromEntries(row?.node.values ?? [])).toEqual({
      objectIdentifier: 'u1',
      notes: ['a note', 'another', 'third'],
    });
  });

  it('writes languages and scripts named in English, or by other codes, as codes', () => {
    const row = csvRow(
      fields,
      { row: 2, cells: ['u1', 'English', 'de||Dutch||ger', 'Latin||cyrl', '', ''] },
      SEPARATORS,
      't',
    );
    expect(Object.fromEntries(row?.node.values ?? [])).toEqual({
      objectIdentifier: 'u1',
      languageCode: 'eng',
      languageOfMaterial: ['deu', 'nld', 'deu'],
      scriptOfMaterial: ['Latn', 'Cyrl'],
    });
  });

  it('keeps values it cannot take as codes', () => {
    const row = csvRow(
      fields,
      { row: 2, cells: ['u1', 'Elvish', '', 'Elvish runes', '', ''] },
      SEPARATORS,
      't',
    );
    expect(row?.node.first('languageCode')).toBe('Elvish');
    expect(row?.node.first('scriptOfMaterial')).toBe('Elvish runes');
  });

  it('takes a row with fewer cells than the header, not one with more', () => {
    expect(csvRow(['a', 'b'], { row: 2, cells: ['x'] }, SEPARATORS, 't')?.node.first('a')).toBe('x');
    expect(csvRow(['a', 'b'], { row: 2, cells: ['x', 'y', 'z'] }, SEPARATORS, 't')).toBeUndefined();
  });
});

describe('csvRowRejection', () => {
  it('names the row and, when there is one, the column', () => {
    expect(csvRowRejection({ tag: 't.csv', row: 3 }, 'name', 'missing')).toEqual({
      kind: 'invalid',
      tag: 't.csv',
      key: 'row 3',
      message: 'CSV row 3, column name: missing',
    });
    expect(csvRowRejection({ tag: 't.csv', row: 3 }, undefined, 'too long').message).toBe(
      'CSV row 3: too long',
    );
  });
});

describe('csvSeparators', () => {
  it('defaults to the reference separators', () => {
    expect(csvSeparators({})).toEqual({ field: ',', array: '||' });
    expect(csvSeparators({ 'field-separator': '\t', 'array-separator': ';' })).toEqual({
      field: '\t',
      array: ';',
    });
  });

  it.each([
    [{ 'field-separator': ';;' }, 'Field separator must be a single character other than a quote, found: ;;'],
    [{ 'field-separator': '"' }, 'Field separator must be a single character other than a quote, found: "'],
    [{ 'array-separator': ',' }, 'Array separator "," must not contain the field separator ","'],
    [{ 'field-separator': [';', ','] }, 'Parameter "field-separator" may be given only once'],
  ])('refuses %j', (query, message) => {
    expect(() => csvSeparators(query)).toThrow(new ImportInputError(message));
  });
});
