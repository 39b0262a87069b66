import { StoredItem } from '../graph/graph-store';
import { Bundle } from '../items/bundle';
import { assertPortalDocument } from '../../test/support/jsonapi-schema';
import { LocalNames, languagePreference } from './languages';
import { PortalUrls } from './portal-urls';
import { toResource, withFields } from './resources';

const urls = new PortalUrls('https://archive.example.org');
const english = { preference: languagePreference(undefined), names: new LocalNames('en') };
const dutchFirst = { preference: languagePreference('nl, en;q=0.5'), names: new LocalNames('nl') };
const UPDATED = '2026-01-02T03:04:05.000Z';

function stored(bundle: Bundle, edges: StoredItem['edges'] = {}): StoredItem {
  return { bundle, edges, hash: 'h', updated: UPDATED };
}

const repository: Bundle = {
  id: 'nl-r1',
  type: 'Repository',
  data: { identifier: 'r1' },
  relations: {
    describes: [
      {
        id: 'nl-r1.eng',
        type: 'RepositoryDescription',
        data: {
          name: 'NIOD Institute for War, Holocaust and Genocide Studies',
          languageCode: 'eng',
          otherFormsOfName: ['NIOD', 'RIOD'],
          history: 'Founded in 1945.',
          geoculturalContext: 'Amsterdam, the Netherlands.',
          openingTimes: 'Monday to Friday',
        },
        relations: {
          hasAddress: [
            {
              id: 'nl-r1.eng-address',
              type: 'Address',
              data: {
                street: 'Herengracht 380',
                municipality: 'Amsterdam',
                firstdem: 'Noord-Holland',
                postalCode: '1016 CJ',
                countryCode: 'NL',
                email: 'info@niod.knaw.nl',
                telephone: ['+31 20 523 3800', '+31 20 523 3801'],
                webpage: 'https://www.niod.nl',
              },
              relations: {},
            },
          ],
        },
      },
    ],
  },
};

const unit: Bundle = {
  id: 'nl-r1-c1-c2',
  type: 'DocumentaryUnit',
  data: { identifier: 'c2', otherIdentifiers: ['NIOD 249-0001', 'old-17'] },
  relations: {
    describes: [
      {
        id: 'nl-r1-c1-c2.eng',
        type: 'DocumentaryUnitDescription',
        data: {
          name: 'Correspondence of the Jewish Council',
          languageCode: 'eng',
          parallelFormsOfName: 'Briefwisseling van de Joodse Raad',
          extentAndMedium: '3 boxes',
          unitDates: ['1941-1943'],
          scopeAndContent: 'Letters sent to the Council, 1941-1943.',
          archivalHistory: 'Seized in 1945.',
          languageOfMaterial: ['ger', 'nld', 'qqq'],
          scriptOfMaterial: ['Latn', 'Hebr', 'Elvish runes'],
        },
        relations: {},
      },
      {
        id: 'nl-r1-c1-c2.nld-ead_2',
        type: 'DocumentaryUnitDescription',
        data: { identifier: 'ead_2', name: 'Correspondentie van de Joodse Raad', languageCode: 'nld' },
        relations: {},
      },
    ],
    hasDate: [],
  },
};

describe('toResource', () => {
  it('maps a country with its report fields', () => {
    const resource = toResource(
      {
        stored: stored({
          id: 'nl',
          type: 'Country',
          data: { identifier: 'nl', name: 'Netherlands', history: 'Occupied 1940-1945.' },
          relations: {},
        }),
        type: 'Country',
        subitems: 4,
      },
      urls,
      english,
    );
    assertPortalDocument({ data: resource });
    expect(resource).toEqual({
      id: 'nl',
      type: 'Country',
      attributes: { identifier: 'nl', name: 'Netherlands', history: 'Occupied 1940-1945.' },
      links: {
        self: 'https://archive.example.org/api/v1/nl',
        search: 'https://archive.example.org/api/v1/nl/search',
      },
      meta: { subitems: 4, updated: UPDATED },
    });
    expect(JSON.parse(JSON.stringify(resource)).attributes).not.toHaveProperty('abstract');
  });

  it('maps a repository: name, address and ISDIAH fields from its description, country as a relationship', () => {
    const resource = toResource(
      { stored: stored(repository, { hasCountry: ['nl'] }), type: 'Repository', subitems: 12 },
      urls,
      english,
    );
    assertPortalDocument({ data: resource });
    expect(JSON.parse(JSON.stringify(resource.attributes))).toEqual({
      name: 'NIOD Institute for War, Holocaust and Genocide Studies',
      parallelFormsOfName: [],
      otherFormsOfName: ['NIOD', 'RIOD'],
      history: 'Founded in 1945.',
      generalContext: 'Amsterdam, the Netherlands.',
      openingTimes: 'Monday to Friday',
      address: {
        streetAddress: 'Herengracht 380',
        city: 'Amsterdam',
        region: 'Noord-Holland',
        postalCode: '1016 CJ',
        countryCode: 'NL',
        country: 'Netherlands',
        email: ['info@niod.knaw.nl'],
        telephone: ['+31 20 523 3800', '+31 20 523 3801'],
        fax: [],
        url: ['https://www.niod.nl'],
      },
    });
    expect(resource.relationships).toEqual({
      country: {
        data: { id: 'nl', type: 'Country' },
        links: { related: 'https://archive.example.org/api/v1/nl' },
      },
    });
  });

  it('links the country by name beside self and search', () => {
    const resource = toResource(
      { stored: stored(repository, { hasCountry: ['nl'] }), type: 'Repository', subitems: 12 },
      urls,
      english,
    );
    expect(resource.links).toEqual({
      self: 'https://archive.example.org/api/v1/nl-r1',
      search: 'https://archive.example.org/api/v1/nl-r1/search',
      country: 'https://archive.example.org/api/v1/nl',
    });
  });

  it.each([
    [
      { latitude: '52.37', longitude: '4.89' },
      { type: 'Point', coordinates: [52.37, 4.89] },
    ],
    [
      { latitude: ['-33.9', '-34'], longitude: '151.2' },
      { type: 'Point', coordinates: [-33.9, 151.2] },
    ],
    [{ latitude: '52.37' }, undefined],
    [{ latitude: '', longitude: '4.89' }, undefined],
    [{ latitude: 'north', longitude: '4.89' }, undefined],
  ])("writes a concept's point as the reference does, latitude first: %j", (coordinates, geo) => {
    const concept: Bundle = {
      id: 'camps-c1',
      type: 'CvocConcept',
      data: { identifier: 'c1', ...coordinates },
      relations: {},
    };
    const resource = toResource(
      { stored: stored(concept, { inAuthoritativeSet: ['camps'] }), type: 'CvocConcept', subitems: 0 },
      urls,
      english,
    );
    expect(JSON.parse(JSON.stringify(resource.attributes)).geo).toEqual(geo);
  });

  it('links agents and concepts to what is linked to them, as the reference does, and not other types', () => {
    const item = (id: string, type: 'HistoricalAgent' | 'CvocConcept', set: string) =>
      toResource(
        {
          stored: stored(
            { id, type, data: { identifier: id }, relations: {} },
            { inAuthoritativeSet: [set] },
          ),
          type,
          subitems: 0,
        },
        urls,
        english,
      );
    expect(item('auths-a1', 'HistoricalAgent', 'auths').links).toEqual({
      self: 'https://archive.example.org/api/v1/auths-a1',
      search: 'https://archive.example.org/api/v1/auths-a1/search',
      related: 'https://archive.example.org/api/v1/auths-a1/related',
      set: 'https://archive.example.org/api/v1/auths',
    });
    expect(item('camps-c1', 'CvocConcept', 'camps').links.related).toBe(
      'https://archive.example.org/api/v1/camps-c1/related',
    );
    const repositoryLinks = toResource(
      { stored: stored(repository), type: 'Repository', subitems: 0 },
      urls,
      english,
    ).links;
    expect(repositoryLinks).not.toHaveProperty('related');
  });

  it('gives a repository without country a null relationship and no country link', () => {
    const resource = toResource(
      { stored: stored(repository), type: 'Repository', subitems: 0 },
      urls,
      english,
    );
    assertPortalDocument({ data: resource });
    expect(resource.relationships).toEqual({ country: null });
    expect(resource.links).not.toHaveProperty('country');
  });

  it('maps a nested unit with its descriptions, holder and parent', () => {
    const resource = toResource(
      {
        stored: stored(unit, { childOf: ['nl-r1-c1'] }),
        type: 'DocumentaryUnit',
        subitems: 0,
        holderId: 'nl-r1',
      },
      urls,
      english,
    );
    assertPortalDocument({ data: resource });
    expect(JSON.parse(JSON.stringify(resource.attributes))).toEqual({
      localId: 'c2',
      alternateIds: ['NIOD 249-0001', 'old-17'],
      descriptions: [
        {
          languageCode: 'eng',
          language: 'English',
          name: 'Correspondence of the Jewish Council',
          parallelFormsOfName: ['Briefwisseling van de Joodse Raad'],
          extentAndMedium: '3 boxes',
          unitDates: ['1941-1943'],
          archivalHistory: 'Seized in 1945.',
          scopeAndContent: 'Letters sent to the Council, 1941-1943.',
          // Named as the reference names them; a code with no name stays a code.
          languageOfMaterials: ['German', 'Dutch', 'qqq'],
          scriptOfMaterials: ['Latin', 'Hebrew', 'Elvish runes'],
        },
        {
          localId: 'ead_2',
          languageCode: 'nld',
          language: 'Dutch',
          name: 'Correspondentie van de Joodse Raad',
          parallelFormsOfName: [],
          unitDates: [],
          languageOfMaterials: [],
          scriptOfMaterials: [],
        },
      ],
    });
    // The reference's order of a description's fields.
    expect(Object.keys(JSON.parse(JSON.stringify(resource.attributes)).descriptions[0])).toEqual([
      'languageCode',
      'language',
      'name',
      'parallelFormsOfName',
      'extentAndMedium',
      'unitDates',
      'archivalHistory',
      'scopeAndContent',
      'languageOfMaterials',
      'scriptOfMaterials',
    ]);
    expect(resource.relationships).toEqual({
      holder: {
        data: { id: 'nl-r1', type: 'Repository' },
        links: { related: 'https://archive.example.org/api/v1/nl-r1' },
      },
      parent: {
        data: { id: 'nl-r1-c1', type: 'DocumentaryUnit' },
        links: { related: 'https://archive.example.org/api/v1/nl-r1-c1' },
      },
    });
  });

  it('gives a top-level unit a null parent', () => {
    const resource = toResource(
      {
        stored: stored(unit, { heldBy: ['nl-r1'] }),
        type: 'DocumentaryUnit',
        subitems: 3,
        holderId: 'nl-r1',
      },
      urls,
      english,
    );
    expect(resource.relationships?.parent).toBeNull();
    expect(resource.links).not.toHaveProperty('parent');
    expect(resource.links.holder).toBe('https://archive.example.org/api/v1/nl-r1');
    expect(resource.meta).toMatchObject({ subitems: 3 });
  });

  it("orders a unit's descriptions by the request's languages and names them in its language", () => {
    const resource = toResource(
      { stored: stored(unit, { heldBy: ['nl-r1'] }), type: 'DocumentaryUnit', subitems: 0 },
      urls,
      dutchFirst,
    );
    const descriptions = resource.attributes.descriptions as { languageCode: string; language: string }[];
    expect(descriptions.map((description) => description.languageCode)).toEqual(['nld', 'eng']);
    expect(descriptions[0].language).toBe('Nederlands');
  });

  it('keeps only the attributes a sparse fieldset names, for its type only', () => {
    const resource = toResource(
      { stored: stored(repository, { hasCountry: ['nl'] }), type: 'Repository', subitems: 12 },
      urls,
      english,
    );
    expect(withFields(resource, { Repository: ['name'] }).attributes).toEqual({
      name: 'NIOD Institute for War, Holocaust and Genocide Studies',
    });
    expect(withFields(resource, { DocumentaryUnit: ['localId'] })).toBe(resource);
  });
});
