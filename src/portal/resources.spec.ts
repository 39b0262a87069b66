import { StoredItem } from '../graph/graph-store';
import { Bundle } from '../items/bundle';
import { assertJsonApiDocument } from '../../test/support/jsonapi-schema';
import { PortalUrls } from './portal-urls';
import { toResource } from './resources';

const urls = new PortalUrls('https://archive.example.org');
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
        data: { name: 'NIOD Institute for War, Holocaust and Genocide Studies', languageCode: 'eng' },
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
          scopeAndContent: 'Letters sent to the Council, 1941-1943.',
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
    );
    assertJsonApiDocument({ data: resource });
    expect(resource).toEqual({
      id: 'nl',
      type: 'Country',
      attributes: { identifier: 'nl', name: 'Netherlands', history: 'Occupied 1940-1945.' },
      links: { self: 'https://archive.example.org/api/v1/nl' },
      meta: { subitems: 4, updated: UPDATED, search: 'https://archive.example.org/api/v1/nl/search' },
    });
    expect(JSON.parse(JSON.stringify(resource)).attributes).not.toHaveProperty('abstract');
  });

  it('maps a repository: name and address from its description, country as a relationship', () => {
    const resource = toResource(
      { stored: stored(repository, { hasCountry: ['nl'] }), type: 'Repository', subitems: 12 },
      urls,
    );
    assertJsonApiDocument({ data: resource });
    expect(JSON.parse(JSON.stringify(resource.attributes))).toEqual({
      name: 'NIOD Institute for War, Holocaust and Genocide Studies',
      address: {
        streetAddress: 'Herengracht 380',
        city: 'Amsterdam',
        region: 'Noord-Holland',
        postalCode: '1016 CJ',
        countryCode: 'NL',
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

  it('gives a repository without country {"data": null}', () => {
    const resource = toResource({ stored: stored(repository), type: 'Repository', subitems: 0 }, urls);
    expect(resource.relationships).toEqual({ country: { data: null } });
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
    );
    assertJsonApiDocument({ data: resource });
    expect(JSON.parse(JSON.stringify(resource.attributes))).toEqual({
      localId: 'c2',
      alternateIds: ['NIOD 249-0001', 'old-17'],
      descriptions: [
        {
          languageCode: 'eng',
          name: 'Correspondence of the Jewish Council',
          parallelFormsOfName: ['Briefwisseling van de Joodse Raad'],
          extentAndMedium: '3 boxes',
          scopeAndContent: 'Letters sent to the Council, 1941-1943.',
        },
        {
          localId: 'ead_2',
          languageCode: 'nld',
          name: 'Correspondentie van de Joodse Raad',
          parallelFormsOfName: [],
        },
      ],
    });
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
    );
    expect(resource.relationships?.parent).toEqual({ data: null });
    expect(resource.meta).toMatchObject({ subitems: 3 });
  });
});
