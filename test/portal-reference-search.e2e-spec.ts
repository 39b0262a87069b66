import { joinPath } from '../src/items/identifiers';
import { COUNCIL, ids, MINUTES, NIOD_ID, useReferenceApp, VOCABULARY } from './support/portal-reference-app';

/**
 * Search in the portal as the reference's clients use it (issue 31): facets and their filters, sort
 * names, the most recently updated first, and the query syntax. Every answer validates against the
 * reference's schema and the official JSON:API one (apart from the specification's two departures).
 */
describe('Portal API v1 search as a drop-in for the reference portal', () => {
  const { app, get, ok } = useReferenceApp();

  describe('facets and filters (break 4)', () => {
    it('counts the whole result by language, country, holder and type in meta.facets', async () => {
      const body = await ok('/api/v1/search?type=DocumentaryUnit&facet=lang&facet=holder&facet=type&limit=1');
      expect(body.data).toHaveLength(1);
      const byParam = Object.fromEntries(
        body.meta.facets.map((facet: { param: string; facets: unknown[] }) => [facet.param, facet]),
      );
      expect(body.meta.facets.map((facet: { param: string }) => facet.param)).toEqual([
        'lang',
        'holder',
        'type',
      ]);
      expect(byParam.lang).toMatchObject({ name: 'Language', count: 3 });
      expect(byParam.lang.facets).toEqual([
        { value: 'eng', name: 'English', count: 6, applied: false },
        { value: 'deu', name: 'German', count: 1, applied: false },
        { value: 'nld', name: 'Dutch', count: 1, applied: false },
      ]);
      expect(byParam.holder.facets).toEqual([
        { value: 'r1', name: 'r1', count: 4, applied: false },
        { value: NIOD_ID, name: 'NIOD Institute', count: 2, applied: false },
      ]);
      expect(byParam.type.facets).toEqual([
        { value: 'DocumentaryUnit', name: 'DocumentaryUnit', count: 6, applied: true },
      ]);
      expect(body.links.next).toContain('facet=lang&facet=holder&facet=type');
    });

    it('filters by lang, country and holder, and marks the facet values applied', async () => {
      const german = await ok('/api/v1/search?lang=deu&facet=lang&sort=id');
      expect(ids(german)).toEqual([`${VOCABULARY}-westerbork`, joinPath(COUNCIL)]);
      expect(german.meta.facets[0].facets).toContainEqual({
        value: 'deu',
        name: 'German',
        count: 2,
        applied: true,
      });
      const dutch = await ok('/api/v1/search?country=nl&sort=id', { 'Accept-Language': 'de' });
      expect(ids(dutch)).toEqual(['nl', NIOD_ID, joinPath(COUNCIL), joinPath(MINUTES)]);
      expect(ids(await ok(`/api/v1/search?holder=${NIOD_ID}&sort=-id`))).toEqual([
        joinPath(MINUTES),
        joinPath(COUNCIL),
      ]);
      expect((await ok(`/api/v1/search?holder=${NIOD_ID}&holder=r1`)).meta.total).toBe(6);
    });

    it('names countries in facets in the language asked for', async () => {
      const { body } = await get('/api/v1/search?type=Repository&facet=country', { 'Accept-Language': 'de' });
      expect(body.meta.facets[0].facets).toEqual([
        { value: 'nl', name: 'Niederlande', count: 1, applied: false },
      ]);
    });
  });

  describe('sort (break 3) and the most recently updated first (break 8)', () => {
    it('lists the most recently updated first without q', async () => {
      const body = await ok('/api/v1/search?limit=100');
      const updated = body.data.map((resource: { meta: { updated: string } }) => resource.meta.updated);
      expect(updated).toEqual([...updated].sort().reverse());
      // The units ead-sync wrote last come before the countries the app made at its start.
      expect(body.data[0].type).toBe('DocumentaryUnit');
      expect(body.data[body.data.length - 1].type).toBe('Country');
    });

    it('sorts by name, id and update time either way', async () => {
      const names = (body: { data: { attributes: { name: string } }[] }) =>
        body.data.map((resource) => resource.attributes.name);
      const countries = await ok('/api/v1/search?type=Country&sort=name&limit=3');
      expect(names(countries)).toEqual(['Afghanistan', 'Albania', 'Algeria']);
      expect(names(await ok('/api/v1/search?type=Country&sort=-name&limit=1'))).toEqual(['Åland Islands']);
      expect(ids(await ok('/api/v1/search?type=Country&sort=id&limit=2'))).toEqual(['ad', 'ae']);
      expect(ids(await ok('/api/v1/search?type=Country&sort=-id&limit=2'))).toEqual(['zw', 'zm']);
      const oldestFirst = await ok('/api/v1/search?type=DocumentaryUnit&sort=-updated');
      const updated = oldestFirst.data.map(
        (resource: { meta: { updated: string } }) => resource.meta.updated,
      );
      expect(updated).toEqual([...updated].sort());
      expect(ids(await ok(`/api/v1/${joinPath(COUNCIL)}/search?sort=-name`))).toEqual([joinPath(MINUTES)]);
    });

    it("takes the reference's older Solr sort names", async () => {
      expect(ids(await ok('/api/v1/search?type=Country&sort=identifier.asc&limit=2'))).toEqual(['ad', 'ae']);
      for (const [solr, name] of [
        ['countryCode.asc', 'country'],
        ['repositoryName.asc', 'holder'],
        ['charCount.desc', 'detail'],
        ['childCount.desc', 'holdings'],
      ]) {
        expect(ids(await ok(`/api/v1/search?type=DocumentaryUnit&sort=${solr}`))).toEqual(
          ids(await ok(`/api/v1/search?type=DocumentaryUnit&sort=${name}`)),
        );
      }
    });

    it("sorts by the reference's country, holder, detail and holdings, what has no country or holder last", async () => {
      // Repository r1 of the test app has no country and no name; its units come after NIOD's.
      expect(ids(await ok('/api/v1/search?type=Repository&sort=country'))).toEqual([NIOD_ID, 'r1']);
      expect(ids(await ok('/api/v1/search?type=Repository&sort=-country'))).toEqual([NIOD_ID, 'r1']);
      const niodUnits = [joinPath(COUNCIL), joinPath(MINUTES)];
      for (const sort of ['holder', '-holder']) {
        const units = ids(await ok(`/api/v1/search?type=DocumentaryUnit&sort=${sort}`));
        expect(units.slice(0, 2).sort()).toEqual(niodUnits);
        expect(units.length).toBeGreaterThan(2);
      }
      // The council has three descriptions, more text than any other unit.
      const mostDescribed = ids(await ok('/api/v1/search?type=DocumentaryUnit&sort=detail'));
      expect(mostDescribed[0]).toBe(joinPath(COUNCIL));
      expect(ids(await ok('/api/v1/search?type=DocumentaryUnit&sort=-detail')).at(-1)).toBe(
        joinPath(COUNCIL),
      );
      const subitems = (body: { data: { meta: { subitems: number } }[] }) =>
        body.data.map((resource) => resource.meta.subitems);
      const mostHoldings = subitems(await ok('/api/v1/search?type=DocumentaryUnit&sort=holdings'));
      expect(mostHoldings).toEqual([...mostHoldings].sort((a, b) => b - a));
      expect(mostHoldings[0]).toBeGreaterThan(mostHoldings.at(-1)!);
      const fewestHoldings = subitems(await ok('/api/v1/search?type=DocumentaryUnit&sort=-holdings'));
      expect(fewestHoldings).toEqual([...mostHoldings].reverse());
    });
  });

  describe('query syntax', () => {
    const found = async (q: string) => ids(await ok(`/api/v1/search?sort=id&q=${encodeURIComponent(q)}`));

    it('finds "phrases", prefix*, AND, OR, NOT and -word', async () => {
      expect(await found('"jewish council"')).toEqual([joinPath(COUNCIL)]);
      expect(await found('"raad joodse"')).toEqual([]);
      expect(await found('judenr*')).toEqual([joinPath(COUNCIL)]);
      expect(await found('judenrat OR minutes')).toEqual([joinPath(COUNCIL), joinPath(MINUTES)]);
      expect(await found('unit AND x')).toEqual([Object.values(app().synced.moved)[0]]);
      expect(await found('unit NOT x -b -united')).toEqual(['r1-f-a']);
    });

    it('looks at one field with name:, scopeAndContent: and identifier:', async () => {
      expect(await found('name:westerbork')).toEqual([`${VOCABULARY}-westerbork`]);
      expect(await found('identifier:council')).toEqual([joinPath(COUNCIL)]);
      expect(await found('name:drenthe')).toEqual([]);
    });

    it('answers a malformed query with 400 naming q and what is wrong', async () => {
      const response = await get('/api/v1/search?q=%22jewish+council');
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({
        status: '400',
        source: { parameter: 'q' },
        detail: expect.stringContaining('never closed'),
      });
      expect((await get('/api/v1/search?q=council+AND')).body.errors[0].detail).toContain(
        'AND has nothing after it',
      );
    });
  });
});
