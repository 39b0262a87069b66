import request from 'supertest';
import { joinPath } from '../src/items/identifiers';
import {
  API,
  COUNCIL,
  AGENT,
  CONCEPT,
  ids,
  MINUTES,
  NIOD_ID,
  SET,
  useReferenceApp,
  VOCABULARY,
} from './support/portal-reference-app';
import { assertJsonApiDocument, assertPortalDocument } from './support/jsonapi-schema';
import { createTestApp } from './support/test-app';

/**
 * The portal API as a drop-in for the reference portal's clients: each place where ours used to
 * break them (issue 31) has its own test, and every answer validates against the reference's
 * schema and the official JSON:API one (apart from the specification's two departures).
 */
describe('Portal API v1 as a drop-in for the reference portal', () => {
  const { app, get, ok } = useReferenceApp();

  describe('links and relationships, as the specification words them', () => {
    it('gives a resource self, search and one link per relationship that has an item (break 1)', async () => {
      const { data } = await ok(`/api/v1/${joinPath(MINUTES)}`);
      expect(data.links).toEqual({
        self: `${API}/${joinPath(MINUTES)}`,
        search: `${API}/${joinPath(MINUTES)}/search`,
        holder: `${API}/${NIOD_ID}`,
        parent: `${API}/${joinPath(COUNCIL)}`,
      });
    });

    it('leads a client that follows links.search and links.holder somewhere (break 1)', async () => {
      const { data } = await ok(`/api/v1/${joinPath(COUNCIL)}`);
      expect(ids(await ok(data.links.search))).toEqual([joinPath(MINUTES)]);
      expect((await ok(data.links.holder)).data.id).toBe(NIOD_ID);
      const repository = (await ok(data.links.holder)).data;
      expect((await ok(repository.links.country)).data.id).toBe('nl');
    });

    it('writes a relationship without an item as null, not {"data": null} (break 2)', async () => {
      const { data } = await ok(`/api/v1/${joinPath(COUNCIL)}`);
      expect(data.relationships.parent).toBeNull();
      expect(data.relationships.holder).toEqual({
        data: { id: NIOD_ID, type: 'Repository' },
        links: { related: `${API}/${NIOD_ID}` },
      });
      expect(data.links).not.toHaveProperty('parent');
    });

    it('departs from the official JSON:API schema on exactly those two points', async () => {
      const body = await ok(`/api/v1/${joinPath(COUNCIL)}`);
      // As it is, the official schema refuses the document (links.search, links.holder, a null
      // relationship); assertPortalDocument, run on every answer, finds it valid once those two
      // points alone are undone.
      expect(() => assertJsonApiDocument(body)).toThrow(/additionalProperty.*search|must be object/s);
    });
  });

  describe('parameters as the reference treats them (break 3)', () => {
    it('serves limit above 100 as 100', async () => {
      const body = await ok('/api/v1/search?type=Country&limit=500');
      expect(body.data).toHaveLength(100);
      expect(body.links.next).toBe(`${API}/search?type=Country&page=2&limit=100`);
    });

    it.each(['0', '-3', 'abc', '2.5'])('serves page=%s as the first page', async (page) => {
      const body = await ok(`/api/v1/search?type=Country&page=${page}&limit=5`);
      expect(body.links).not.toHaveProperty('prev');
      expect(body.data).toHaveLength(5);
    });

    it.each(['0', 'ten'])('serves limit=%s as the default 20', async (limit) => {
      expect((await ok(`/api/v1/search?type=Country&limit=${limit}`)).data).toHaveLength(20);
    });

    it('matches type whatever its case', async () => {
      const body = await ok('/api/v1/search?type=repository');
      expect(ids(body)).toContain(NIOD_ID);
      expect(body.data.every((resource: { type: string }) => resource.type === 'Repository')).toBe(true);
      expect(body.links.first).toBe(`${API}/search?type=Repository`);
    });

    it('takes the first of repeated q', async () => {
      expect(ids(await ok('/api/v1/search?q=judenrat&q=nothing+like+it'))).toEqual([joinPath(COUNCIL)]);
    });

    it('answers sort with the reference names rather than 400', async () => {
      for (const sort of ['name', 'updated', 'id', 'score', '-name', 'name_sort.asc', 'location']) {
        expect((await get(`/api/v1/search?type=Repository&sort=${sort}`)).status).toBe(200);
      }
    });

    it('still refuses include, as JSON:API requires', async () => {
      const response = await get('/api/v1/search?include=holder');
      expect(response.status).toBe(400);
      expect(response.body.errors[0].source).toEqual({ parameter: 'include' });
    });
  });

  describe('sparse fieldsets (break 4)', () => {
    it('keeps only the attributes fields[Type] names, in searches and fetches, and keeps them in links', async () => {
      const body = await ok('/api/v1/search?type=Repository&fields[Repository]=name');
      expect(body.data.find((resource: { id: string }) => resource.id === NIOD_ID).attributes).toEqual({
        name: 'NIOD Institute',
      });
      expect(body.links.first).toContain(`fields%5BRepository%5D=name`);
      const fetched = await ok(
        `/api/v1/${joinPath(MINUTES)}?fields[DocumentaryUnit]=localId&fields[Repository]=address`,
      );
      expect(fetched.data.attributes).toEqual({ localId: 'minutes' });
      expect(fetched.included.find((resource: { id: string }) => resource.id === NIOD_ID).attributes).toEqual(
        {},
      );
    });
  });

  describe('historical agents and concepts (break 5)', () => {
    it('fetches a HistoricalAgent with its description as attributes and its set as relationship', async () => {
      const { data } = await ok(`/api/v1/${AGENT}`);
      expect(data).toMatchObject({
        id: AGENT,
        type: 'HistoricalAgent',
        attributes: { localId: 'test-eac', name: 'Test Corporate Body', languageCode: 'eng' },
        relationships: { set: { data: { id: SET, type: 'AuthoritativeSet' } } },
        links: { set: `${API}/${SET}` },
      });
      expect((await ok(data.links.set)).data).toMatchObject({
        type: 'AuthoritativeSet',
        attributes: { name: 'Authorities' },
      });
    });

    it('fetches a CvocConcept with its descriptions and vocabulary', async () => {
      const { data } = await ok(`/api/v1/${VOCABULARY}-westerbork`);
      expect(data).toMatchObject({
        type: 'CvocConcept',
        attributes: {
          localId: 'westerbork',
          descriptions: [
            {
              languageCode: 'eng',
              prefLabel: 'Westerbork transit camp',
              definition: ['A transit camp in Drenthe.'],
              scopeNote: ['Use for the camp, not the village.'],
            },
            { languageCode: 'deu', prefLabel: 'Durchgangslager Westerbork' },
          ],
        },
        relationships: { vocabulary: { data: { id: VOCABULARY, type: 'CvocVocabulary' } } },
      });
    });

    it('searches agents and concepts by type and text', async () => {
      expect(ids(await ok('/api/v1/search?type=HistoricalAgent'))).toEqual([AGENT]);
      expect(ids(await ok('/api/v1/search?q=transit+camp'))).toEqual([`${VOCABULARY}-westerbork`]);
      expect(ids(await ok('/api/v1/search?q=corporate&type=historicalagent'))).toEqual([AGENT]);
    });

    it('yields the items of an authority set and of a vocabulary in their scoped search', async () => {
      const inSet = await ok(`/api/v1/${SET}/search`);
      expect(ids(inSet)).toEqual([AGENT]);
      expect(inSet.included.map((resource: { id: string }) => resource.id)).toEqual([SET]);
      expect(ids(await ok(`/api/v1/${VOCABULARY}/search`))).toEqual([`${VOCABULARY}-westerbork`]);
    });
  });

  describe("agents' and concepts' related items, as the reference links them", () => {
    it('leads from an agent or a concept through links.related to the items linked to it', async () => {
      for (const id of [AGENT, CONCEPT]) {
        const { data } = await ok(`/api/v1/${id}`);
        expect(data.links.related).toBe(`${API}/${id}/related`);
        const related = await ok(data.links.related);
        expect(ids(related)).toEqual([joinPath(MINUTES)]);
        expect(related.included.map((resource: { id: string }) => resource.id)).toEqual([id]);
        expect(related.meta).toEqual({ total: 1, pages: 1 });
      }
    });

    it("searches any item's related items with the search parameters, and finds none for an unlinked one", async () => {
      const minutes = `/api/v1/${joinPath(MINUTES)}/related`;
      expect(ids(await ok(`${minutes}?sort=id`))).toEqual([AGENT, CONCEPT]);
      expect(ids(await ok(`${minutes}?sort=-id`))).toEqual([CONCEPT, AGENT]);
      expect(ids(await ok(`${minutes}?type=CvocConcept`))).toEqual([CONCEPT]);
      expect(ids(await ok(`${minutes}?q=corporate`))).toEqual([AGENT]);
      const paged = await ok(`${minutes}?sort=id&limit=1&page=2&facet=type`);
      expect(ids(paged)).toEqual([CONCEPT]);
      expect(paged.links.first).toBe(`${API}/${joinPath(MINUTES)}/related?sort=id&facet=type&limit=1`);
      expect(paged.meta.facets[0].facets.map((facet: { value: string }) => facet.value).sort()).toEqual([
        'CvocConcept',
        'HistoricalAgent',
      ]);
      const unlinked = await ok(`/api/v1/${NIOD_ID}/related`);
      expect(unlinked.data).toEqual([]);
      expect(unlinked.meta.total).toBe(0);
      expect((await get('/api/v1/no-such-item/related')).status).toBe(404);
    });
  });

  describe('languages (break 6)', () => {
    it("orders a unit's descriptions by Accept-Language, best first, and says so in Content-Language", async () => {
      const url = `/api/v1/${joinPath(COUNCIL)}`;
      const german = await get(url, { 'Accept-Language': 'de-CH, nl;q=0.8, en;q=0.5' });
      const languages = (body: { data: { attributes: { descriptions: { languageCode: string }[] } } }) =>
        body.data.attributes.descriptions.map((description) => description.languageCode);
      expect(languages(german.body)).toEqual(['deu', 'nld', 'eng']);
      expect(german.headers['content-language']).toBe('de-CH');
      expect(german.body.data.attributes.descriptions[0].language).toBe('Deutsch');
      const dutch = await get(url, { 'Accept-Language': 'nl' });
      expect(languages(dutch.body)).toEqual(['nld', 'eng', 'deu']);
      const none = await get(url);
      expect(languages(none.body)).toEqual(['eng', 'deu', 'nld']);
      expect(none.headers['content-language']).toBe('en');
    });

    it('names countries in the language asked for', async () => {
      const german = await get('/api/v1/nl', { 'Accept-Language': 'de' });
      expect(german.body.data.attributes.name).toBe('Niederlande');
      expect(german.headers['content-language']).toBe('de');
      expect((await get('/api/v1/nl', { 'Accept-Language': 'fr;q=0.9, xx' })).body.data.attributes.name).toBe(
        'Pays-Bas',
      );
      expect((await ok('/api/v1/nl')).data.attributes.name).toBe('Netherlands');
    });

    it('orders concept descriptions and picks the agent description by language too', async () => {
      const { body } = await get(`/api/v1/${VOCABULARY}-westerbork`, { 'Accept-Language': 'de' });
      expect(body.data.attributes.descriptions[0].prefLabel).toBe('Durchgangslager Westerbork');
    });
  });

  describe('tombstones and redirects (break 7)', () => {
    it('answers 410 Gone for a unit ead-sync deleted, saying when and by which import', async () => {
      expect(app().synced.deleted).toHaveLength(1);
      const [gone] = app().synced.deleted;
      const response = await get(`/api/v1/${gone}`);
      expect(response.status).toBe(410);
      expect(response.body.errors[0]).toMatchObject({ status: '410', title: 'Gone' });
      expect(response.body.errors[0].detail).toMatch(
        new RegExp(
          `"${gone}" was deleted on \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z by import ${app().synced.log.event}`,
        ),
      );
      expect((await get(`/api/v1/${gone}/search`)).status).toBe(410);
    });

    it('answers 301 with the new URL for a unit ead-sync moved, for its fetch and its search', async () => {
      const [[from, to]] = Object.entries(app().synced.moved);
      const fetch = await get(`/api/v1/${from}?fields[DocumentaryUnit]=localId`);
      expect(fetch.status).toBe(301);
      expect(fetch.headers.location).toBe(`${API}/${to}?fields[DocumentaryUnit]=localId`);
      expect((await ok(fetch.headers.location)).data.id).toBe(to);
      const search = await get(`/api/v1/${from}/search?q=x`);
      expect(search.status).toBe(301);
      expect(search.headers.location).toBe(`${API}/${to}/search?q=x`);
    });

    it('still answers 404 for an id that never was', async () => {
      expect((await get('/api/v1/r1-f-never')).status).toBe(404);
    });
  });

  describe('public mode (break 9)', () => {
    it('serves the index without a token', async () => {
      const response = await request(app().t.server).get('/api/v1');
      expect(response.status).toBe(200);
      assertPortalDocument(response.body);
    });

    it('asks for a token elsewhere by default', async () => {
      expect((await request(app().t.server).get('/api/v1/search')).status).toBe(401);
    });

    it('serves everything without a token with PORTAL_AUTH=off, and a token changes nothing', async () => {
      const open = await createTestApp({ env: { PORTAL_AUTH: 'off' } });
      try {
        const search = await request(open.server).get('/api/v1/search?type=Country&limit=1');
        expect(search.status).toBe(200);
        assertPortalDocument(search.body);
        expect((await request(open.server).get('/api/v1/nl')).status).toBe(200);
        const withToken = await request(open.server)
          .get('/api/v1/nl')
          .set('Authorization', 'Bearer nonsense');
        expect(withToken.status).toBe(200);
      } finally {
        await open.close();
      }
    });

    it('refuses an unknown PORTAL_AUTH at start', async () => {
      await expect(createTestApp({ env: { PORTAL_AUTH: 'maybe' } })).rejects.toThrow(/PORTAL_AUTH/);
    });
  });
});
