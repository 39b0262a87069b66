import { ImportHttpError } from './import-errors';
import { commitRequested, parseImportParams, rawQueryOf } from './import-params';

function refusal(query: Record<string, string | string[]>): string {
  try {
    parseImportParams(query);
  } catch (error) {
    if (error instanceof ImportHttpError) return String(error.details);
    throw error;
  }
  throw new Error('accepted');
}

describe('parseImportParams', () => {
  it('applies the defaults', () => {
    expect(parseImportParams({})).toEqual({
      commit: false,
      tolerant: false,
      allowUpdate: false,
      useSourceId: false,
      scope: undefined,
      log: undefined,
      lang: 'eng',
      tag: '-',
      handler: undefined,
      importer: undefined,
      properties: undefined,
      query: {},
    });
  });

  it('reads booleans in any case, and 1/0', () => {
    const params = parseImportParams({
      commit: 'TRUE',
      tolerant: '1',
      'allow-update': 'False',
      'use-source-id': '0',
    });
    expect(params).toMatchObject({ commit: true, tolerant: true, allowUpdate: false, useSourceId: false });
  });

  it.each(['yes', '', 'on', 'truee', '__proto__', 'constructor', 'toString'])(
    'refuses the boolean %j',
    (value) => {
      expect(refusal({ tolerant: value })).toContain('"tolerant" must be true or false');
    },
  );

  it('normalises lang to ISO 639-2/T and refuses unknown languages', () => {
    expect(parseImportParams({ lang: 'de' }).lang).toBe('deu');
    expect(parseImportParams({ lang: 'ger' }).lang).toBe('deu');
    expect(refusal({ lang: 'klingonish' })).toBe('Unknown language code: klingonish');
  });

  it('refuses repeated single-valued parameters and empty names', () => {
    expect(refusal({ scope: ['a', 'b'] })).toContain('"scope" may be given only once');
    expect(refusal({ scope: ' ' })).toContain('"scope" must not be empty');
    expect(refusal({ handler: '' })).toContain('"handler" must not be empty');
  });

  it('keeps every parameter in query for the formats, and tag defaults when empty', () => {
    const params = parseImportParams({ tag: '', fonds: 'f1', ex: ['a', 'b'] });
    expect(params.tag).toBe('-');
    expect(params.query).toEqual({ tag: '', fonds: 'f1', ex: ['a', 'b'] });
  });
});

describe('commitRequested', () => {
  it('is true only for a well-formed true commit', () => {
    expect(commitRequested({ commit: 'true' })).toBe(true);
    expect(commitRequested({ commit: 'nope' })).toBe(false);
    expect(commitRequested({})).toBe(false);
  });
});

describe('rawQueryOf', () => {
  it('keeps strings and lists of strings only', () => {
    expect(rawQueryOf({ a: 'x', b: ['y', 'z'], c: { nested: 'no' } })).toEqual({ a: 'x', b: ['y', 'z'] });
    expect(rawQueryOf(undefined)).toEqual({});
  });

  it('keeps a parameter named __proto__ as a parameter, the prototype untouched', () => {
    // As a query string parser gives it: an own key, in an object without a prototype.
    const parsed = JSON.parse('{"__proto__": ["a", "b"], "commit": "true"}') as unknown;
    const raw = rawQueryOf(parsed);
    expect(Object.keys(raw)).toEqual(['__proto__', 'commit']);
    expect(JSON.stringify(raw)).toBe('{"__proto__":["a","b"],"commit":"true"}');
    expect(Object.getPrototypeOf(raw)).toBeNull();
    expect(parseImportParams(raw).commit).toBe(true);
  });
});
