import { fulltextQuery, indexedWords, searchWords } from './search-words';

describe('searchWords', () => {
  it('lower-cases, removes accents and splits at anything but letters and digits', () => {
    expect(searchWords('Łódź-Ghetto: ŻYDOWSKA Gmina, 1941/42')).toEqual([
      'łodz',
      'ghetto',
      'zydowska',
      'gmina',
      '1941',
      '42',
    ]);
    expect(searchWords('Théresienstadt Zürich')).toEqual(['theresienstadt', 'zurich']);
  });

  it('keeps letters of every script', () => {
    expect(searchWords('Варшава ירושלים 東京')).toEqual(['варшава', 'ירושלים', '東京']);
  });

  it('finds no words in punctuation and white space', () => {
    expect(searchWords(' "*(){}^~ \t')).toEqual([]);
  });
});

describe('indexedWords', () => {
  it('joins the words with single spaces, for the white-space analyzer', () => {
    expect(indexedWords('  Camp  records,\nWesterbork ')).toBe('camp records westerbork');
  });
});

describe('fulltextQuery', () => {
  it('asks for every word as a prefix in the names (weighted) or the text', () => {
    expect(fulltextQuery('Camp Westerbork')).toBe(
      '(_names:camp*^2 OR _text:camp*) AND (_names:westerbork*^2 OR _text:westerbork*)',
    );
  });

  it('is undefined for text without words, so that the search is over everything', () => {
    expect(fulltextQuery(undefined)).toBeUndefined();
    expect(fulltextQuery('   ')).toBeUndefined();
    expect(fulltextQuery('"*"')).toBeUndefined();
  });

  it('turns Lucene syntax in the text into plain words', () => {
    expect(fulltextQuery('camp AND (Westerbork')).toBe(
      '(_names:camp*^2 OR _text:camp*) AND (_names:and*^2 OR _text:and*) AND ' +
        '(_names:westerbork*^2 OR _text:westerbork*)',
    );
    for (const hostile of ['names:x', '_text:x^9', '-camp', '{x TO y}', 'a~2', 'x\\*', 'NOT camp || OR']) {
      const clauses = fulltextQuery(hostile)!.split(' AND ');
      for (const clause of clauses)
        expect(clause).toMatch(/^\(_names:[\p{Ll}\p{N}]+\*\^2 OR _text:[\p{Ll}\p{N}]+\*\)$/u);
    }
  });

  it('asks for each word once and for at most 64 words', () => {
    expect(fulltextQuery('camp Camp CAMP')).toBe('(_names:camp*^2 OR _text:camp*)');
    const paragraph = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
    expect(fulltextQuery(paragraph)!.split(' AND ')).toHaveLength(64);
  });
});
