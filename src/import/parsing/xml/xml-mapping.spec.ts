import { ImportInputError } from '../../formats/read-events';
import { parseProperties, XmlMapping } from './xml-mapping';

describe('parseProperties', () => {
  it('reads java.util.Properties text: separators, comments, continuations, escapes, last key wins', () => {
    const properties = parseProperties(
      [
        '# a comment',
        '  ! another comment',
        '',
        'did/unittitle/=name',
        'spaced/key/ : value with spaces  ',
        'blank/separator/ value',
        'escaped\\=key/=tab\\there',
        'unicode/=\\u00e9t\\u00E9',
        'continued/=first \\',
        '    second',
        'did/unittitle/=title',
        'no/value/',
      ].join('\r\n'),
    );
    expect(Object.fromEntries(properties)).toEqual({
      'did/unittitle/': 'title',
      'spaced/key/': 'value with spaces  ',
      'blank/separator/': 'value',
      'escaped=key/': 'tab\there',
      'unicode/': 'été',
      'continued/': 'first second',
      'no/value/': '',
    });
  });
});

describe('XmlMapping', () => {
  it('refuses a mapping to __proto__, which no field may be called', () => {
    for (const line of ['did/unittitle/=__proto__', 'did/unitid/@label=__proto__']) {
      expect(() => XmlMapping.parse(`${line}\n`)).toThrow(ImportInputError);
      expect(() => XmlMapping.parse(line)).toThrow(`properties: ${line}: no field may be called __proto__`);
    }
  });

  const mapping = XmlMapping.parse(
    [
      'did/unittitle/=name',
      'unittitle/=shortestWins',
      'archdesc/did/unitid/=notReached',
      'did/unitid/=objectIdentifier',
      'controlaccess/persname/=personAccessPoint',
      'did/physdesc/physfacet=noTrailingSlash',
      '@level=levelOfDesc',
      'archdesc/@levelOfDesc=levelOfDescription',
      '@label=labelAlias',
      'did/unitid/@labelAlias$main=objectIdentifier',
    ].join('\n'),
  );

  it('maps an element by the shortest suffix of its path that has a field', () => {
    expect(mapping.elementField(['ead', 'archdesc', 'did', 'unittitle'])).toBe('shortestWins');
    expect(mapping.elementField(['ead', 'archdesc', 'did', 'unitid'])).toBe('objectIdentifier');
    expect(mapping.elementField(['c01', 'controlaccess', 'persname'])).toBe('personAccessPoint');
  });

  it('maps nothing when no suffix matches, or for a key without the trailing slash', () => {
    expect(mapping.elementField(['ead', 'archdesc', 'persname'])).toBeUndefined();
    expect(mapping.elementField(['did', 'physdesc', 'physfacet'])).toBeUndefined();
    expect(mapping.elementField([])).toBeUndefined();
  });

  it('maps attributes through their alias, and by value', () => {
    expect(mapping.attributeAlias('level')).toBe('levelOfDesc');
    expect(mapping.attributeAlias('id')).toBeUndefined();
    expect(mapping.attributeField(['ead', 'archdesc'], 'levelOfDesc')).toBe('levelOfDescription');
    expect(mapping.attributeField(['ead', 'archdesc', 'dsc', 'c01'], 'levelOfDesc')).toBeUndefined();
    expect(mapping.attributeField(['c', 'did', 'unitid'], 'labelAlias')).toBeUndefined();
    expect(mapping.attributeField(['c', 'did', 'unitid'], 'labelAlias', 'main')).toBe('objectIdentifier');
    expect(mapping.attributeField(['c', 'did', 'unitid'], 'labelAlias', 'other')).toBeUndefined();
  });
});
