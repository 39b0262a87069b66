import { normaliseSpace, RawNode } from './raw-node';

describe('normaliseSpace', () => {
  it.each([
    ['  \n\t  ', ''],
    ['\n    Top level item.\n  ', 'Top level item.'],
    ['a \t\r\n b', 'a b'],
    // A no-break space becomes a space but, not being white space to Java, is not merged.
    ['a \u00a0b', 'a  b'],
    ['\u00a0edge\u00a0', 'edge'],
    // U+2003 (em space) is white space to Java; U+2007 (figure space) is not.
    ['a\u2003\u2003b', 'a b'],
    ['a\u2007b', 'a\u2007b'],
    ['a  b', 'a b'],
    ['a b  c', 'a b c'],
    ['a \u00a0 b', 'a   b'],
    ['\ud83d\ude00  \ud83d\ude01', '\ud83d\ude00 \ud83d\ude01'],
    ['a \ud83d\ude00 b', 'a \ud83d\ude00 b'],
  ])('normalises %j to %j', (text, expected) => {
    expect(normaliseSpace(text)).toBe(expected);
  });

  // Java's white space, the no-break space and the other characters the quick test must not
  // let through as normal: each inside a value, alone and between spaces.
  const javaWhitespace = [
    ...'\t\n\u000b\f\r\u001c\u001d\u001e\u001f\u1680\u2028\u2029\u205f\u3000',
    ...'\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a',
  ];
  const otherControls = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).filter(
    (character) => !javaWhitespace.includes(character),
  );
  it.each([
    ...javaWhitespace.map((character) => [character, 'a b', 'a b']),
    ['\u00a0', 'a b', 'a   b'],
    // Not white space to Java: kept, as are the spaces around them.
    ...[...otherControls, '\u2007', '\u202f', '\u0085', '\ufeff'].map((character) => [
      character,
      `a${character}b`,
      `a ${character} b`,
    ]),
  ])('normalises %j inside a value', (character, alone, spaced) => {
    expect(normaliseSpace(`a${character}b`)).toBe(alone);
    expect(normaliseSpace(`a ${character} b`)).toBe(spaced);
  });
});

describe('RawNode', () => {
  it('keeps one value as text and several as a list, dropping empty values', () => {
    const node = new RawNode();
    node.put('scopeAndContent', ' first\n paragraph ');
    node.put('scopeAndContent', '   ');
    node.put('scopeAndContent', 'second');
    node.put('name', 'Title');
    node.put('missing', undefined);
    expect(Object.fromEntries(node.values)).toEqual({
      scopeAndContent: ['first paragraph', 'second'],
      name: 'Title',
    });
    expect(node.first('scopeAndContent')).toBe('first paragraph');
    expect(node.all('name')).toEqual(['Title']);
    expect(node.all('other')).toEqual([]);
  });

  it('keeps language fields as ISO 639-2/T codes, and unknown codes as given', () => {
    const node = new RawNode();
    node.put('languageCode', 'ger');
    node.put('languageOfMaterial', 'fr');
    node.put('languageOfMaterial', 'xx-unknown');
    node.put('otherLanguage', 'ger');
    expect(Object.fromEntries(node.values)).toEqual({
      languageCode: 'deu',
      languageOfMaterial: ['fra', 'xx-unknown'],
      otherLanguage: 'ger',
    });
  });
});
