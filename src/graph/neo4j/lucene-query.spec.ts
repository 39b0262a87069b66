import { luceneTextQuery } from './lucene-query';

describe('luceneTextQuery', () => {
  it('asks for words as prefixes in names (boosted) and text, or in the one field named', () => {
    expect(luceneTextQuery({ kind: 'words', text: 'Łódź ghetto' })).toBe(
      '((_names:łodz*^2 OR _text:łodz*) AND (_names:ghetto*^2 OR _text:ghetto*))',
    );
    expect(luceneTextQuery({ kind: 'words', text: 'NIOD', field: 'identifier' })).toBe(
      '(_identifiers:niod*)',
    );
  });

  it('keeps Lucene syntax in the text from reaching Lucene', () => {
    expect(luceneTextQuery({ kind: 'phrase', text: 'a:b "c" OR (d)~2', field: 'name' })).toBe(
      '_titles:"a b c or d 2"',
    );
    expect(luceneTextQuery({ kind: 'words', text: '*?:\\' })).toBeUndefined();
  });

  it('joins OR and AND, excluding with NOT', () => {
    expect(
      luceneTextQuery({
        kind: 'and',
        clauses: [
          {
            kind: 'or',
            clauses: [
              { kind: 'words', text: 'a', field: 'name' },
              { kind: 'phrase', text: 'b c' },
            ],
          },
          { kind: 'not', clause: { kind: 'words', text: 'd', field: 'scopeAndContent' } },
        ],
      }),
    ).toBe('(((_titles:a*) OR (_names:"b c"^2 OR _text:"b c")) AND NOT (_scope:d*))');
  });
});
