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
  ])('normalises %j to %j', (text, expected) => {
    expect(normaliseSpace(text)).toBe(expected);
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
