import { validateAgainst } from '../../../test/support/xml-schemas';
import { Bundle, Props } from '../../items/bundle';
import { dublinCore } from './dublin-core';

function node(id: string, type: Bundle['type'], data: Props, relations: Bundle['relations'] = {}): Bundle {
  return { id, type, data, relations };
}

const unit = node(
  'nl-r1-f1',
  'DocumentaryUnit',
  { identifier: 'F1' },
  {
    describes: [
      node(
        'nl-r1-f1.eng',
        'DocumentaryUnitDescription',
        {
          languageCode: 'eng',
          name: 'Council minutes',
          levelOfDescription: 'fonds',
          extentAndMedium: '3 boxes',
          languageOfMaterial: ['ger', 'nld'],
          scopeAndContent: 'Minutes & <letters> of the council',
          abstract: 'In short',
        },
        {
          hasDate: [
            node('d1', 'DatePeriod', { startDate: '1940-01-01', endDate: '1945-12-31' }),
            node('d2', 'DatePeriod', { startDate: '1950' }),
          ],
          relatesTo: [
            node('a1', 'AccessPoint', { type: 'subject', name: 'Deportation' }),
            node('a2', 'AccessPoint', { type: 'creator', name: 'Joodse Raad' }),
            node('a3', 'AccessPoint', { type: 'person', name: 'Cohen, David' }),
            node('a4', 'AccessPoint', { type: 'place', name: 'Amsterdam' }),
            node('a5', 'AccessPoint', { type: 'genre', name: 'Minutes' }),
          ],
        },
      ),
      node('nl-r1-f1.deu', 'DocumentaryUnitDescription', { languageCode: 'deu', name: 'Ratsprotokolle' }),
    ],
  },
);
const holder = node(
  'nl-r1',
  'Repository',
  { identifier: 'r1' },
  {
    describes: [node('nl-r1.eng', 'RepositoryDescription', { languageCode: 'eng', name: 'City Archives' })],
  },
);

/** The elements of the record in order, as `name: text`. */
function elements(xml: string): string[] {
  return [...xml.matchAll(/<dc:(\w+)[^>]*>([^<]*)<\/dc:\1>/g)].map(([, name, text]) => `${name}: ${text}`);
}

describe('Dublin Core of an item', () => {
  it("maps a unit's description as the reference does, in its order", async () => {
    const xml = dublinCore({ item: unit, holder });
    expect(elements(xml)).toEqual([
      'identifier: F1',
      'title: Council minutes',
      'publisher: City Archives',
      'coverage: 1940-01-01 - 1945-12-31',
      'coverage: 1950',
      'type: fonds',
      'format: 3 boxes',
      'language: German',
      'language: Dutch',
      'description: In short',
      'description: Minutes &amp; &lt;letters&gt; of the council',
      'subject: Deportation',
      'creator: Joodse Raad',
      'relation: Cohen, David',
      'coverage: Amsterdam',
    ]);
    expect(xml).toContain('<dc:description xml:lang="en">In short</dc:description>');
    const validation = await validateAgainst('oai_dc.xsd', xml);
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);
  });

  it('takes the description in the language asked for, English otherwise', () => {
    expect(elements(dublinCore({ item: unit }, 'ger'))).toEqual(['identifier: F1', 'title: Ratsprotokolle']);
    expect(elements(dublinCore({ item: unit }, 'fra'))[1]).toBe('title: Council minutes');
  });

  it('names items without descriptions by their own fields, and drops characters XML cannot hold', async () => {
    expect(elements(dublinCore({ item: node('nl', 'Country', { identifier: 'nl' }) }))).toEqual([
      'identifier: nl',
      'title: Netherlands',
    ]);
    const vocabulary = node('terms', 'CvocVocabulary', {
      identifier: 'terms',
      name: 'Terms\u0001',
      description: 'Keywords',
    });
    const xml = dublinCore({ item: vocabulary });
    expect(elements(xml)).toEqual(['identifier: terms', 'title: Terms', 'description: Keywords']);
    expect((await validateAgainst('oai_dc.xsd', xml)).valid).toBe(true);
  });
});
