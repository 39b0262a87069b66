import { Bundle } from './bundle';
import { searchableText } from './search-text';

function node(
  id: string,
  type: Bundle['type'],
  data: Bundle['data'],
  relations: Bundle['relations'] = {},
): Bundle {
  return { id, type, data, relations };
}

const words = (value: string) => value.split(' ').filter((word) => word !== '');

describe('searchableText', () => {
  const unit = node(
    'nl-r1-u1',
    'DocumentaryUnit',
    { identifier: 'U1', otherIdentifiers: ['SIG-7', 'OLD-3'], extentCount: 4, sourceFileId: 'ead-file' },
    {
      describes: [
        node(
          'nl-r1-u1.eng',
          'DocumentaryUnitDescription',
          {
            name: 'Ghetto',
            languageCode: 'eng',
            parallelFormsOfName: ['Getto', 'Ghetto (parallel)'],
            otherFormsOfName: 'Ghetto records',
            scopeAndContent: 'Council minutes',
            extentAndMedium: '3 boxes',
            languageOfMaterial: ['deu', 'pol'],
            published: true,
          },
          {
            hasDate: [node('d1', 'DatePeriod', { startDate: '1940-01-01', endDate: '1944-12-31' })],
            relatesTo: [node('ap1', 'AccessPoint', { name: 'Lodz', type: 'place' })],
            hasUnknownProperty: [node('up1', 'UnknownProperty', { note: 'internal remark' })],
          },
        ),
        node(
          'nl-r1-u1.deu',
          'DocumentaryUnitDescription',
          { name: 'Ghettoakten', languageCode: 'deu', biographicalHistory: 'Geschichte' },
          { hasAddress: [node('a1', 'Address', { municipality: 'Amsterdam', email: ['info@example.org'] })] },
        ),
      ],
    },
  );

  it('puts identifiers and every form of name among the names', () => {
    expect(words(searchableText(unit).names).sort()).toEqual(
      [
        'U1',
        'SIG-7',
        'OLD-3',
        'Ghetto',
        'Getto',
        'Ghetto',
        '(parallel)',
        'Ghetto',
        'records',
        'Ghettoakten',
      ].sort(),
    );
  });

  it('puts the other prose of descriptions, access point names and addresses in the text', () => {
    const text = searchableText(unit).text;
    for (const expected of ['Council minutes', '3 boxes', 'deu', 'pol', 'Lodz', 'Geschichte', 'Amsterdam']) {
      expect(text).toContain(expected);
    }
  });

  it('leaves out codes, non-text values, dates, unknown properties and item internals', () => {
    const { names, text } = searchableText(unit);
    for (const absent of ['eng', '1940', 'internal', 'true', 'ead-file', '4', 'place']) {
      expect(words(`${names} ${text}`)).not.toContain(absent);
    }
  });

  it('names an item without descriptions by its own name', () => {
    expect(searchableText(node('nl', 'Country', { identifier: 'nl', name: 'Netherlands' }))).toEqual({
      names: 'nl Netherlands',
      text: '',
      titles: 'Netherlands',
      identifiers: 'nl',
      scopeAndContent: '',
    });
  });

  it('keeps the fields a query may name apart: names, identifiers, scope and content', () => {
    const { titles, identifiers, scopeAndContent } = searchableText(unit);
    expect(words(titles).sort()).toEqual(['Ghetto', 'Ghettoakten'].sort());
    expect(words(identifiers)).toEqual(['U1', 'SIG-7', 'OLD-3']);
    expect(scopeAndContent).toBe('Council minutes');
  });
});
