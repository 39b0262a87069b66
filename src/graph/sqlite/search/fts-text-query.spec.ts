import { ftsTextQuery } from './fts-text-query';

describe('ftsTextQuery', () => {
  it('quotes every word, a prefix outside phrases, in the column of a field', () => {
    expect(ftsTextQuery({ kind: 'words', text: 'Jewish-Council' })).toBe('"Jewish"* AND "Council"*');
    expect(ftsTextQuery({ kind: 'phrase', text: 'council minutes', field: 'name' })).toBe(
      'titles : ("council minutes")',
    );
  });

  it('keeps FTS5 syntax in the text from reaching FTS5', () => {
    expect(ftsTextQuery({ kind: 'words', text: 'NEAR(a b) col:"x"', field: 'identifier' })).toBe(
      'identifiers : ("NEAR"* AND "a"* AND "b"* AND "col"* AND "x"*)',
    );
    expect(ftsTextQuery({ kind: 'phrase', text: '*^:' })).toBeUndefined();
  });

  it('joins OR and AND, then excludes with NOT', () => {
    expect(
      ftsTextQuery({
        kind: 'and',
        clauses: [
          {
            kind: 'or',
            clauses: [
              { kind: 'words', text: 'a' },
              { kind: 'words', text: 'b' },
            ],
          },
          { kind: 'not', clause: { kind: 'words', text: 'c', field: 'scopeAndContent' } },
        ],
      }),
    ).toBe('((("a"*) OR ("b"*))) NOT (scope : ("c"*))');
  });
});
