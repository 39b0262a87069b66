import { joinPath } from '../src/items/identifiers';
import {
  API,
  CORRESPONDENCE,
  ids,
  JEWISH_COUNCIL,
  LETTERS_1942,
  MINUTES,
  NIOD,
  NIOD_ID,
  portalRequests,
  startPortalApp,
  TOP_LEVEL_COUNT,
  topLevelLocalId,
} from './support/portal-app';
import { TestApp } from './support/test-app';

/** The portal's index, search and scoped search, on the fixtures of `support/portal-app.ts`. */
describe('Portal API v1 (through the real app on SQLite)', () => {
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    ({ testApp, token } = await startPortalApp());
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const { get, ok, allPages } = portalRequests(() => ({ testApp, token }));

  describe('index', () => {
    it('names the routes', async () => {
      const body = await ok('/api/v1');
      expect(body.links.self).toBe(API);
      expect(body.meta.routes).toEqual({
        search: `${API}/search`,
        fetch: `${API}/{id}`,
        searchIn: `${API}/{id}/search`,
        related: `${API}/{id}/related`,
      });
    });
  });

  describe('search', () => {
    it('filters by type, the most recently updated first without q, ties by id', async () => {
      const body = await ok('/api/v1/search?type=Repository');
      expect(ids(body)).toEqual(['de-bundesarchiv', 'nl-hcw', 'nl-niod']);
      expect(body.meta).toEqual({ total: 3, pages: 1 });
      expect(body.links).toEqual({
        first: `${API}/search?type=Repository`,
        last: `${API}/search?type=Repository`,
      });
    });

    it('ORs repeated types', async () => {
      const countries = (await ok('/api/v1/search?type=Country&limit=1')).meta.total;
      const repositories = (await ok('/api/v1/search?type=Repository&limit=1')).meta.total;
      const both = await allPages('/api/v1/search?type=Repository&type=Country&limit=100');
      expect(countries).toBeGreaterThan(0);
      expect(both).toHaveLength(countries + repositories);
      expect(both).toEqual(expect.arrayContaining(['nl', 'de', 'nl-niod', 'de-bundesarchiv']));
    });

    it('searches every portal type when no type is given, and nothing else', async () => {
      const user = await testApp.user('portal_reader');
      const everything = await allPages('/api/v1/search?limit=100');
      const units = (await ok('/api/v1/search?type=DocumentaryUnit')).meta.total;
      const countries = (await ok('/api/v1/search?type=Country')).meta.total;
      expect(everything).toHaveLength(countries + 3 + units);
      expect(everything).not.toContain(user);
    });

    it('finds text in names, identifiers and descriptions, names first', async () => {
      const body = await ok('/api/v1/search?q=westerbork');
      expect(ids(body).slice(0, 2).sort()).toEqual([joinPath(LETTERS_1942), 'nl-hcw'].sort());
      expect(ids(body)).toContain(joinPath(['nl', 'hcw', 'hcw-1']));
      expect(body.meta.total).toBe(3);
      expect(ids(await ok('/api/v1/search?q=R+58'))).toEqual([joinPath(['de', 'bundesarchiv', 'R 58'])]);
    });

    it('combines q with type', async () => {
      expect(ids(await ok('/api/v1/search?q=westerbork&type=Repository'))).toEqual(['nl-hcw']);
    });

    it('pages through results with absolute links that keep q, type and limit', async () => {
      const path = '/api/v1/search?q=records&type=DocumentaryUnit&limit=10';
      const first = await ok(path);
      expect(first.meta).toEqual({ total: TOP_LEVEL_COUNT, pages: 3 });
      const base = `${API}/search?q=records&type=DocumentaryUnit`;
      expect(first.links).toEqual({
        first: `${base}&limit=10`,
        last: `${base}&page=3&limit=10`,
        next: `${base}&page=2&limit=10`,
      });
      const middle = await ok(`${path}&page=2`);
      expect(middle.links).toEqual({
        first: `${base}&limit=10`,
        last: `${base}&page=3&limit=10`,
        prev: `${base}&limit=10`,
        next: `${base}&page=3&limit=10`,
      });
      const last = await ok(`${path}&page=3`);
      expect(last.links).toEqual({
        first: `${base}&limit=10`,
        last: `${base}&page=3&limit=10`,
        prev: `${base}&page=2&limit=10`,
      });
      expect(last.data).toHaveLength(5);
      const all = [...ids(first), ...ids(middle), ...ids(last)];
      expect(new Set(all).size).toBe(TOP_LEVEL_COUNT);
    });

    it('builds links from the configured public URL, never from the Host header', async () => {
      const body = await ok('/api/v1/search?type=Repository', {
        Host: 'attacker.example',
        'X-Forwarded-Host': 'attacker.example',
        'X-Forwarded-Proto': 'http',
      });
      expect(body.links.first.startsWith(`${API}/`)).toBe(true);
      expect(JSON.stringify(body)).not.toContain('attacker.example');
    });

    it('answers an empty page beyond the last one', async () => {
      const body = await ok('/api/v1/search?type=Repository&page=5');
      expect(body.data).toEqual([]);
      expect(body.links.prev).toBe(`${API}/search?type=Repository`);
      expect(body.links).not.toHaveProperty('next');
    });
  });

  describe('scoped search', () => {
    it("yields a country's repositories, including the country", async () => {
      const body = await ok('/api/v1/nl/search');
      expect(ids(body)).toEqual(['nl-hcw', 'nl-niod']);
      expect(body.included).toHaveLength(1);
      expect(body.included[0]).toMatchObject({ id: 'nl', type: 'Country', attributes: { identifier: 'nl' } });
      expect(body.included[0].meta.subitems).toBe(2);
    });

    it("yields a repository's top-level units only", async () => {
      const found = await allPages(`/api/v1/${NIOD_ID}/search?limit=10`);
      expect(found).toEqual(
        Array.from({ length: TOP_LEVEL_COUNT }, (_, i) => joinPath([...NIOD, topLevelLocalId(i + 1)])),
      );
    });

    it('pages a scoped search with links to the scoped route', async () => {
      const body = await ok(`/api/v1/${NIOD_ID}/search?limit=10&page=2`);
      expect(body.links).toEqual({
        first: `${API}/${NIOD_ID}/search?limit=10`,
        last: `${API}/${NIOD_ID}/search?page=3&limit=10`,
        prev: `${API}/${NIOD_ID}/search?limit=10`,
        next: `${API}/${NIOD_ID}/search?page=3&limit=10`,
      });
      expect(body.included.map((resource: { id: string }) => resource.id)).toEqual([NIOD_ID]);
    });

    it("yields a unit's direct children only", async () => {
      const body = await ok(`/api/v1/${joinPath(JEWISH_COUNCIL)}/search`);
      expect(ids(body)).toEqual([joinPath(CORRESPONDENCE), joinPath(MINUTES)]);
      expect(body.included[0].id).toBe(joinPath(JEWISH_COUNCIL));
    });

    it('searches every descendant of a unit with q', async () => {
      const body = await ok(`/api/v1/${joinPath(JEWISH_COUNCIL)}/search?q=westerbork`);
      expect(ids(body)).toEqual([joinPath(LETTERS_1942)]);
    });

    it("searches a repository's whole holdings with q, and nothing outside it", async () => {
      const body = await ok(`/api/v1/${NIOD_ID}/search?q=letters`);
      expect(ids(body)).toEqual([joinPath(LETTERS_1942)]);
      expect(ids(await ok('/api/v1/nl-hcw/search?q=letters'))).toEqual([]);
    });

    it('answers 404 for an unknown scope', async () => {
      const response = await get('/api/v1/nl-nowhere/search');
      expect(response.status).toBe(404);
      expect(response.body.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    });
  });
});
