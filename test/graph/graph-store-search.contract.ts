import { setTimeout as sleep } from 'node:timers/promises';
import {
  GraphStore,
  ItemWrite,
  SearchOrderKey,
  SearchQuery,
  SearchResult,
  UPDATED_FIRST,
} from '../../src/graph/graph-store';
import { TextQuery } from '../../src/graph/text-query';
import { parseQuery } from '../../src/portal/query-syntax';
import { country, repository, unit } from './graph-store-fixtures';

/**
 * The port's search beyond plain words, run against every adapter, so that the embedded store and
 * Neo4j agree: orders, filters, facets over the whole result and the query syntax.
 *
 * Items are written in three commits, a few milliseconds apart, so that their update times order
 * them: the countries and repositories first, then the Dutch units, then the German ones.
 */
export function describeSearchContract(
  name: string,
  open: () => Promise<{ store: GraphStore; cleanup(): Promise<void> }>,
): void {
  describe(`GraphStore search contract: ${name}`, () => {
    let store: GraphStore;
    let cleanup: () => Promise<void>;

    const put = (...items: ItemWrite[]) => store.write((tx) => tx.putItems(items));

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await put(
        country('nl', 'Netherlands'),
        country('de', 'Germany'),
        repository('r1', 'nl', 'Amsterdam Archive'),
        repository('r2', 'de', 'Berlin Archive'),
      );
      await sleep(5);
      await put(
        unit('u1', {
          parent: { heldBy: 'r1' },
          otherIdentifiers: ['NIOD-249'],
          descriptions: [
            {
              lang: 'eng',
              name: 'Jewish Council minutes',
              text: 'Minutes of the council meetings in Amsterdam',
            },
            { lang: 'nld', name: 'Notulen van de Joodse Raad', text: 'Notulen' },
          ],
        }),
        unit('u2', {
          parent: { childOf: 'u1' },
          descriptions: [{ lang: 'eng', name: 'Council letters', text: 'Letters to the Jewish Council' }],
        }),
        unit('u3', {
          parent: { heldBy: 'r1' },
          descriptions: [{ lang: 'nld', name: 'Westerbork foto', text: 'Photographs of camp Westerbork' }],
        }),
      );
      await sleep(5);
      await put(
        unit('u4', {
          parent: { heldBy: 'r2' },
          descriptions: [{ lang: 'deu', name: 'Judenrat Akten', text: 'Akten des Judenrats' }],
        }),
        unit('u5', {
          parent: { heldBy: 'r2' },
          descriptions: [{ lang: 'deu', name: 'Lager Westerbork', text: 'Camp records, jewish council' }],
        }),
      );
    });

    afterAll(async () => {
      await cleanup?.();
    });

    const search = (query: Partial<SearchQuery>): Promise<SearchResult> =>
      store.read((tx) => tx.search({ offset: 0, limit: 100, ...query }));
    const ids = (result: SearchResult) => result.hits.map((hit) => hit.id);
    const units = { types: ['DocumentaryUnit'] as const };
    const query = (q: string): TextQuery => parseQuery(q)!;

    describe('orders', () => {
      it('lists the most recently updated first, ties by id', async () => {
        expect(ids(await search({ ...units, order: UPDATED_FIRST }))).toEqual(['u4', 'u5', 'u1', 'u2', 'u3']);
        expect(ids(await search({ types: ['Repository', 'DocumentaryUnit'], order: UPDATED_FIRST }))).toEqual(
          ['u4', 'u5', 'u1', 'u2', 'u3', 'r1', 'r2'],
        );
      });

      it('lists the least recently updated first, reversed', async () => {
        expect(ids(await search({ ...units, order: { key: 'updated', descending: false } }))).toEqual([
          'u1',
          'u2',
          'u3',
          'u4',
          'u5',
        ]);
      });

      it('pages through an order', async () => {
        const page = await search({ ...units, order: UPDATED_FIRST, offset: 2, limit: 2 });
        expect(page).toEqual({
          total: 5,
          hits: [
            { id: 'u1', type: 'DocumentaryUnit' },
            { id: 'u2', type: 'DocumentaryUnit' },
          ],
        });
      });

      it('orders by the smallest name, case folded, either way', async () => {
        const byName = ['u2', 'u1', 'u4', 'u5', 'u3'];
        expect(ids(await search({ ...units, order: { key: 'name', descending: false } }))).toEqual(byName);
        expect(ids(await search({ ...units, order: { key: 'name', descending: true } }))).toEqual(
          [...byName].reverse(),
        );
        expect(ids(await search({ types: ['Country'], order: { key: 'name', descending: false } }))).toEqual([
          'de',
          'nl',
        ]);
      });

      it('orders by id either way', async () => {
        expect(ids(await search({ ...units, order: { key: 'id', descending: true } }))).toEqual([
          'u5',
          'u4',
          'u3',
          'u2',
          'u1',
        ]);
      });

      const held = { types: ['Repository', 'DocumentaryUnit'] as const };
      /** The ids of the repositories and units (or of `types`) in the order `key` names, and reversed. */
      const bothWays = async (key: SearchOrderKey, types: Partial<SearchQuery> = held) => [
        ids(await search({ ...types, order: { key, descending: false } })),
        ids(await search({ ...types, order: { key, descending: true } })),
      ];

      it('orders by country code, what has none last, either way', async () => {
        expect(await bothWays('country')).toEqual([
          ['r2', 'u4', 'u5', 'r1', 'u1', 'u2', 'u3'],
          ['r1', 'u1', 'u2', 'u3', 'r2', 'u4', 'u5'],
        ]);
      });

      it("orders units by their holder's name, what has none (a repository) last, either way", async () => {
        expect(await bothWays('holder')).toEqual([
          ['u1', 'u2', 'u3', 'u4', 'u5', 'r1', 'r2'],
          ['u4', 'u5', 'u1', 'u2', 'u3', 'r1', 'r2'],
        ]);
      });

      it("orders by the characters of the descriptions' text values", async () => {
        // u1: 22 + 44 + 3 and 26 + 7 + 3 characters (name, text, language) in two descriptions;
        // u3: 15 + 30 + 3; u2: 15 + 29 + 3 and u5: 16 + 28 + 3, tied; u4: 14 + 19 + 3.
        expect(await bothWays('detail', units)).toEqual([
          ['u4', 'u2', 'u5', 'u3', 'u1'],
          ['u1', 'u3', 'u2', 'u5', 'u4'],
        ]);
      });

      it('orders by the number of children', async () => {
        expect(await bothWays('holdings')).toEqual([
          ['u2', 'u3', 'u4', 'u5', 'u1', 'r1', 'r2'],
          ['r1', 'r2', 'u1', 'u2', 'u3', 'u4', 'u5'],
        ]);
      });

      it('orders text matches by update time when asked, not by relevance', async () => {
        expect(ids(await search({ text: 'westerbork', ...units, order: UPDATED_FIRST }))).toEqual([
          'u5',
          'u3',
        ]);
      });

      it('orders a scope by update time', async () => {
        const scope = { id: 'r1', depth: 'children' } as const;
        expect(ids(await search({ scope, order: { key: 'updated', descending: true } }))).toEqual([
          'u1',
          'u3',
        ]);
        expect(
          ids(await search({ scope: { id: 'nl', depth: 'descendants' }, order: UPDATED_FIRST })),
        ).toEqual(['u1', 'u2', 'u3', 'r1']);
      });
    });

    describe('filters', () => {
      it('keeps items with a description in one of the languages', async () => {
        expect(
          ids(
            await search({
              ...units,
              order: { key: 'id', descending: false },
              filters: { languages: ['nld'] },
            }),
          ),
        ).toEqual(['u1', 'u3']);
        expect((await search({ ...units, filters: { languages: ['nld', 'deu'] } })).total).toBe(4);
      });

      it('keeps items in one of the countries: the country itself and what lies below it', async () => {
        const byId = { key: 'id', descending: false } as const;
        expect(ids(await search({ order: byId, filters: { countries: ['de'] } }))).toEqual([
          'de',
          'r2',
          'u4',
          'u5',
        ]);
      });

      it('keeps units held by one of the repositories, at any depth', async () => {
        const byId = { key: 'id', descending: false } as const;
        expect(ids(await search({ order: byId, filters: { holders: ['r1'] } }))).toEqual(['u1', 'u2', 'u3']);
      });

      it('keeps only the items of the ids, with text, in a scope and with facets too', async () => {
        const byId = { key: 'id', descending: false } as const;
        const some = { ids: ['u5', 'r1', 'u2', 'nowhere'] };
        expect(ids(await search({ order: byId, filters: some }))).toEqual(['r1', 'u2', 'u5']);
        expect(ids(await search({ text: 'council', order: byId, filters: some }))).toEqual(['u2', 'u5']);
        const scoped = await search({
          scope: { id: 'u1', depth: 'children' },
          filters: some,
          facets: ['type'],
        });
        expect(scoped).toEqual({
          total: 1,
          hits: [{ id: 'u2', type: 'DocumentaryUnit' }],
          facets: { type: [{ value: 'DocumentaryUnit', count: 1 }] },
        });
      });

      it('ANDs filters and text', async () => {
        expect(
          ids(
            await search({
              text: 'council',
              filters: { countries: ['nl'], languages: ['eng'] },
              order: { key: 'id', descending: false },
            }),
          ),
        ).toEqual(['u1', 'u2']);
      });
    });

    describe('facets', () => {
      it('counts the whole result, not the page, most frequent first then by value', async () => {
        const result = await search({ ...units, limit: 1, facets: ['lang', 'country', 'holder', 'type'] });
        expect(result.hits).toHaveLength(1);
        expect(result.facets).toEqual({
          lang: [
            { value: 'eng', count: 2 },
            { value: 'deu', count: 2 },
            { value: 'nld', count: 2 },
          ].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)),
          country: [
            { value: 'nl', count: 3 },
            { value: 'de', count: 2 },
          ],
          holder: [
            { value: 'r1', count: 3 },
            { value: 'r2', count: 2 },
          ],
          type: [{ value: 'DocumentaryUnit', count: 5 }],
        });
      });

      it('counts what the text, scope and filters keep', async () => {
        const result = await search({
          text: 'westerbork',
          facets: ['type', 'country'],
          filters: { languages: ['deu', 'nld'] },
        });
        expect(result.total).toBe(2);
        expect(result.facets).toEqual({
          type: [{ value: 'DocumentaryUnit', count: 2 }],
          country: [
            { value: 'de', count: 1 },
            { value: 'nl', count: 1 },
          ],
        });
        const scoped = await search({ scope: { id: 'r1', depth: 'descendants' }, facets: ['lang'] });
        expect(scoped.facets).toEqual({
          lang: [
            { value: 'eng', count: 2 },
            { value: 'nld', count: 2 },
          ],
        });
      });
    });

    describe('query syntax', () => {
      const found = async (q: string) =>
        ids(await search({ textQuery: query(q), ...units, order: { key: 'id', descending: false } }));

      it('finds phrases, words in order', async () => {
        expect(await found('"jewish council"')).toEqual(['u1', 'u2', 'u5']);
        expect(await found('"council jewish"')).toEqual([]);
      });

      it('finds prefixes', async () => {
        expect(await found('wester*')).toEqual(['u3', 'u5']);
        expect(await found('"wester"')).toEqual([]);
      });

      it('ORs, ANDs and NOTs', async () => {
        expect(await found('judenrat OR notulen')).toEqual(['u1', 'u4']);
        expect(await found('council AND letters')).toEqual(['u2']);
        expect(await found('council NOT letters')).toEqual(['u1', 'u5']);
        expect(await found('council -letters -lager')).toEqual(['u1']);
        expect(await found('(judenrat OR westerbork) -foto')).toEqual(['u4', 'u5']);
      });

      it('looks at one field with name:, scopeAndContent: and identifier:', async () => {
        expect(await found('name:council')).toEqual(['u1', 'u2']);
        expect(await found('scopeAndContent:council')).toEqual(['u1', 'u2', 'u5']);
        expect(await found('scopeAndContent:photographs')).toEqual(['u3']);
        expect(await found('name:photographs')).toEqual([]);
        expect(await found('identifier:niod')).toEqual(['u1']);
        expect(await found('identifier:"niod 249"')).toEqual(['u1']);
        expect(await found('name:"council minutes" OR scopeAndContent:akten')).toEqual(['u1', 'u4']);
      });

      it('combines syntax with facets and filters', async () => {
        const result = await search({
          textQuery: query('council OR westerbork'),
          facets: ['holder'],
          filters: { languages: ['eng', 'deu'] },
        });
        expect(result.total).toBe(3);
        expect(result.facets?.holder).toEqual([
          { value: 'r1', count: 2 },
          { value: 'r2', count: 1 },
        ]);
      });
    });
  });
}
