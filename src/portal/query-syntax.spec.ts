import { InvalidParameterException } from './invalid-parameter';
import { isPlainWords, parseQuery } from './query-syntax';

function malformed(q: string): string | undefined {
  try {
    parseQuery(q);
  } catch (error) {
    if (error instanceof InvalidParameterException) return error.message;
    throw error;
  }
  return undefined;
}

describe('parseQuery', () => {
  it('ANDs words side by side, each a prefix', () => {
    expect(parseQuery('warsaw ghetto')).toEqual({
      kind: 'and',
      clauses: [
        { kind: 'words', text: 'warsaw' },
        { kind: 'words', text: 'ghetto' },
      ],
    });
  });

  it('reads phrases, prefixes and field queries', () => {
    expect(parseQuery('"jewish council" wars* name:ghetto identifier:"NIOD 249"')).toEqual({
      kind: 'and',
      clauses: [
        { kind: 'phrase', text: 'jewish council' },
        { kind: 'words', text: 'wars' },
        { kind: 'words', text: 'ghetto', field: 'name' },
        { kind: 'phrase', text: 'NIOD 249', field: 'identifier' },
      ],
    });
  });

  it('binds AND tighter than OR, and reads NOT, -word and parentheses', () => {
    expect(parseQuery('a AND b OR c -d')).toEqual({
      kind: 'or',
      clauses: [
        {
          kind: 'and',
          clauses: [
            { kind: 'words', text: 'a' },
            { kind: 'words', text: 'b' },
          ],
        },
        {
          kind: 'and',
          clauses: [
            { kind: 'words', text: 'c' },
            { kind: 'not', clause: { kind: 'words', text: 'd' } },
          ],
        },
      ],
    });
    expect(parseQuery('(a OR b) NOT c')).toEqual({
      kind: 'and',
      clauses: [
        {
          kind: 'or',
          clauses: [
            { kind: 'words', text: 'a' },
            { kind: 'words', text: 'b' },
          ],
        },
        { kind: 'not', clause: { kind: 'words', text: 'c' } },
      ],
    });
  });

  it('keeps hyphenated words and lower-case operators as words', () => {
    expect(parseQuery('Jewish-Council and more')).toEqual({
      kind: 'and',
      clauses: [
        { kind: 'words', text: 'Jewish-Council' },
        { kind: 'words', text: 'and' },
        { kind: 'words', text: 'more' },
      ],
    });
  });

  it('reads names that objects have, such as constructor, as words', () => {
    expect(parseQuery('constructor toString __proto__')).toEqual({
      kind: 'and',
      clauses: [
        { kind: 'words', text: 'constructor' },
        { kind: 'words', text: 'toString' },
        { kind: 'words', text: '__proto__' },
      ],
    });
  });

  it('has no query for text without words', () => {
    expect(parseQuery('& ... ')).toBeUndefined();
  });

  it('tells plain words from syntax', () => {
    expect(isPlainWords('warsaw ghetto')).toBe(true);
    expect(isPlainWords('warsaw*')).toBe(true);
    expect(isPlainWords('Jewish-Council and more')).toBe(true);
    expect(isPlainWords('warsaw AND ghetto')).toBe(false);
    expect(isPlainWords('"warsaw ghetto"')).toBe(false);
    expect(isPlainWords('name:warsaw')).toBe(false);
    expect(isPlainWords('warsaw -ghetto')).toBe(false);
    expect(isPlainWords('(warsaw)')).toBe(false);
  });

  it.each([
    ['"open', 'never closed'],
    ['(a OR b', 'never closed'],
    ['a)', 'without its'],
    ['AND a', 'nothing before'],
    ['a AND', 'nothing after'],
    ['a OR', 'empty clause'],
    ['NOT', 'nothing after'],
    ['-a', 'at least one word'],
    ['name:', 'nothing to look for'],
  ])('refuses %j: %s', (q, what) => {
    expect(malformed(q)).toContain(what);
  });
});
