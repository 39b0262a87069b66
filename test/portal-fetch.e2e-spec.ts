import { joinPath } from '../src/items/identifiers';
import {
  API,
  CORRESPONDENCE,
  ids,
  JEWISH_COUNCIL,
  LETTERS_1942,
  NIOD,
  NIOD_ID,
  portalRequests,
  startPortalApp,
  TOP_LEVEL_COUNT,
} from './support/portal-app';
import { unitWrite } from './support/portal-fixtures';
import { TestApp } from './support/test-app';

/** Fetching one item, and answers after commits, on the fixtures of `support/portal-app.ts`. */
describe('Portal API v1 (through the real app on SQLite)', () => {
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    ({ testApp, token } = await startPortalApp());
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const { get, ok } = portalRequests(() => ({ testApp, token }));

  describe('fetch', () => {
    it('returns a nested unit with its holder and parent included', async () => {
      const body = await ok(`/api/v1/${joinPath(CORRESPONDENCE)}`);
      expect(body.data.relationships).toEqual({
        holder: { data: { id: NIOD_ID, type: 'Repository' }, links: { related: `${API}/${NIOD_ID}` } },
        parent: {
          data: { id: joinPath(JEWISH_COUNCIL), type: 'DocumentaryUnit' },
          links: { related: `${API}/${joinPath(JEWISH_COUNCIL)}` },
        },
      });
      expect(body.data.attributes).toEqual({
        localId: 'corr',
        alternateIds: [],
        descriptions: [
          {
            languageCode: 'eng',
            language: 'English',
            name: 'Correspondence',
            parallelFormsOfName: [],
            unitDates: [],
            acquisition: 'Transferred in 1950.',
            languageOfMaterials: [],
            scriptOfMaterials: [],
          },
          {
            localId: 'nl-1',
            languageCode: 'nld',
            language: 'Dutch',
            name: 'Correspondentie',
            parallelFormsOfName: ['Brieven'],
            unitDates: [],
            languageOfMaterials: [],
            scriptOfMaterials: [],
          },
        ],
      });
      expect(body.data.links).toEqual({
        self: `${API}/${joinPath(CORRESPONDENCE)}`,
        search: `${API}/${joinPath(CORRESPONDENCE)}/search`,
        holder: `${API}/${NIOD_ID}`,
        parent: `${API}/${joinPath(JEWISH_COUNCIL)}`,
      });
      expect(body.data.meta).toMatchObject({ subitems: 1 });
      expect(new Date(body.data.meta.updated).toISOString()).toBe(body.data.meta.updated);
      expect(body.included.map((resource: { id: string }) => resource.id)).toEqual([
        NIOD_ID,
        joinPath(JEWISH_COUNCIL),
      ]);
    });

    it('finds the holder of a deeply nested unit through its ancestors', async () => {
      const body = await ok(`/api/v1/${joinPath(LETTERS_1942)}`);
      expect(body.data.relationships.holder.data).toEqual({ id: NIOD_ID, type: 'Repository' });
    });

    it('gives a top-level unit a null parent and includes only its holder', async () => {
      const body = await ok(`/api/v1/${joinPath(JEWISH_COUNCIL)}`);
      expect(body.data.relationships.parent).toBeNull();
      expect(body.data.links).not.toHaveProperty('parent');
      expect(body.data.meta.subitems).toBe(2);
      expect(body.included.map((resource: { id: string }) => resource.id)).toEqual([NIOD_ID]);
    });

    it('returns a repository with its address and country', async () => {
      const body = await ok(`/api/v1/${NIOD_ID}`);
      expect(body.data).toMatchObject({
        id: NIOD_ID,
        type: 'Repository',
        attributes: {
          name: 'NIOD Institute for War, Holocaust and Genocide Studies',
          address: {
            streetAddress: 'Herengracht 380',
            city: 'Amsterdam',
            region: 'Noord-Holland',
            postalCode: '1016 CJ',
            countryCode: 'NL',
            country: 'Netherlands',
            email: ['info@niod.knaw.nl'],
            telephone: ['+31 20 523 3800'],
            fax: [],
            url: ['https://www.niod.nl'],
          },
        },
        relationships: { country: { data: { id: 'nl', type: 'Country' } } },
        links: { self: `${API}/${NIOD_ID}`, search: `${API}/${NIOD_ID}/search`, country: `${API}/nl` },
        meta: { subitems: TOP_LEVEL_COUNT },
      });
      expect(body).not.toHaveProperty('included');
    });

    it('returns a country with its report fields and no relationships', async () => {
      const body = await ok('/api/v1/nl');
      expect(body.data).toEqual({
        id: 'nl',
        type: 'Country',
        attributes: {
          identifier: 'nl',
          name: 'Netherlands',
          summary: 'About 102,000 Jews were deported from the Netherlands.',
          history: 'Occupied by Germany from May 1940 to May 1945.',
        },
        links: { self: `${API}/nl`, search: `${API}/nl/search` },
        meta: { subitems: 2, updated: expect.any(String) },
      });
      expect((await ok('/api/v1/nl/search')).included).toEqual([body.data]);
    });

    it('returns the same object that search returns for the item', async () => {
      const unitPath = `/api/v1/${joinPath(LETTERS_1942)}`;
      const fetched = (await ok(unitPath)).data;
      const listed = (await ok(`/api/v1/${joinPath(CORRESPONDENCE)}/search`)).data;
      expect(listed).toEqual([fetched]);
      const repository = (await ok('/api/v1/nl-hcw')).data;
      const found = (await ok('/api/v1/search?q=westerbork&type=Repository')).data;
      expect(found).toEqual([repository]);
    });

    it('answers 404 for an unknown id and for items the portal does not serve', async () => {
      const user = await testApp.user();
      for (const id of ['nl-nowhere', user]) {
        const response = await get(`/api/v1/${id}`);
        expect(response.status).toBe(404);
        expect(response.body.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
      }
    });
  });

  describe('answers kept between commits', () => {
    it('answers repeated requests as the store is now, after every commit', async () => {
      const search = '/api/v1/search?q=zeppelin';
      const airship = (name: string) =>
        unitWrite([...NIOD, 'airship'], { descriptions: [{ languageCode: 'eng', name }] });
      const { id } = airship('').bundle;
      const before = await ok(search);
      expect(before.meta.total).toBe(0);
      expect(await ok(search)).toEqual(before);
      try {
        await testApp.store.write((tx) => tx.putItems([airship('Zeppelin photographs')]));
        expect(ids(await ok(search))).toEqual([id]);
        const fetched = await ok(`/api/v1/${id}`);
        expect(fetched.data.attributes.descriptions[0].name).toBe('Zeppelin photographs');
        expect(await ok(`/api/v1/${id}`)).toEqual(fetched);
        await testApp.store.write((tx) => tx.putItems([airship('Zeppelin letters')]));
        expect((await ok(`/api/v1/${id}`)).data.attributes.descriptions[0].name).toBe('Zeppelin letters');
      } finally {
        await testApp.store.write((tx) => tx.deleteItems([id]));
      }
      expect(await ok(search)).toEqual(before);
      expect((await get(`/api/v1/${id}`)).status).toBe(404);
    });

    it('serves an item as the store is now in every answer that holds it, after a commit', async () => {
      const repositoryId = NIOD_ID;
      const subitemsIn = (resources: { id: string; meta: { subitems: number } }[]) =>
        resources.find((resource) => resource.id === repositoryId)?.meta.subitems;
      const subitemsBefore = (await ok(`/api/v1/${repositoryId}`)).data.meta.subitems;
      // The same version: other answers that hold the repository hold the same resource.
      expect(subitemsIn((await ok(`/api/v1/${repositoryId}/search`)).included)).toBe(subitemsBefore);
      const unit = unitWrite([...NIOD, 'late-arrival'], {
        descriptions: [{ languageCode: 'eng', name: 'Late' }],
      });
      try {
        await testApp.store.write((tx) => tx.putItems([unit]));
        // Answers asked for the first time at the new version, and one asked before it.
        expect(subitemsIn((await ok(`/api/v1/${repositoryId}/search?limit=5`)).included)).toBe(
          subitemsBefore + 1,
        );
        expect(subitemsIn((await ok('/api/v1/search?type=Repository')).data)).toBe(subitemsBefore + 1);
        expect((await ok(`/api/v1/${repositoryId}`)).data.meta.subitems).toBe(subitemsBefore + 1);
      } finally {
        await testApp.store.write((tx) => tx.deleteItems([unit.bundle.id]));
      }
      expect(subitemsIn((await ok(`/api/v1/${repositoryId}/search?limit=6`)).included)).toBe(subitemsBefore);
    });
  });
});
