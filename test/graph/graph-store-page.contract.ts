import { setTimeout as sleep } from 'node:timers/promises';
import { GraphStore, ItemWrite, SEARCH_ORDER_KEYS, SearchQuery } from '../../src/graph/graph-store';
import { Page, PageRequest } from '../../src/graph/graph-search';
import { composedPage, countedHits } from '../../src/graph/portal-page';
import { country, repository, unit } from './graph-store-fixtures';

/**
 * `readPage`, the one call of a portal answer, run against every adapter: it must answer what the
 * port's finer reads answer (`composedPage`, how the portal read before), for every source, scope,
 * order, filter and facet, and the items beside a page.
 */
export function describePageContract(
  name: string,
  open: () => Promise<{ store: GraphStore; cleanup(): Promise<void> }>,
  /** Whether the store works totals and facets out over the first hits only (`countLimit`). */
  countsBounded = false,
): void {
  describe(`GraphStore page contract: ${name}`, () => {
    let store: GraphStore;
    let cleanup: () => Promise<void>;

    const put = (...items: ItemWrite[]) => store.write((tx) => tx.putItems(items));

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await put(country('nl', 'Netherlands'), country('de', 'Germany'));
      await put(repository('r1', 'nl', 'Amsterdam Archive'), repository('r2', 'de', 'Berlin Archive'));
      await sleep(5);
      await put(
        unit('u1', {
          parent: { heldBy: 'r1' },
          descriptions: [
            { lang: 'eng', name: 'Jewish Council minutes', text: 'Minutes of the council' },
            { lang: 'nld', name: 'Notulen van de Joodse Raad', text: 'Notulen' },
          ],
        }),
        unit('u2', {
          parent: { childOf: 'u1' },
          descriptions: [{ lang: 'eng', name: 'Council letters', text: 'Letters to the Jewish Council' }],
        }),
        unit('u3', { parent: { childOf: 'u2' }, descriptions: [{ lang: 'eng', name: 'Council file' }] }),
      );
      await sleep(5);
      await put(
        unit('u4', {
          parent: { heldBy: 'r2' },
          descriptions: [{ lang: 'deu', name: 'Judenrat Akten', text: 'Akten des Judenrats, council' }],
        }),
        {
          bundle: { id: 'l1', type: 'Link', data: { identifier: 'l1', type: 'associative' }, relations: {} },
          hash: 'hash-l1',
          edges: { hasLinkTarget: ['u1', 'u4'] },
        },
      );
      await store.write((tx) =>
        tx.putRecords([{ id: 'gone-u9', type: 'PageTombstone', props: { removed: '2024-01-01' } }]),
      );
    });

    afterAll(async () => {
      await cleanup?.();
    });

    const both = (request: PageRequest): Promise<[Page, Page]> =>
      store.read(async (tx) => [await tx.readPage(request), await composedPage(tx, request)]);
    const search = (query: Partial<SearchQuery>): SearchQuery => ({ offset: 0, limit: 100, ...query });
    const hitIds = (page: Page) => page.hits.map((hit) => hit.stored.bundle.id);

    it('reads a page of hits with their children counted and their holders', async () => {
      const [page, composed] = await both({
        search: search({ text: 'council', order: { key: 'id', descending: false } }),
      });
      expect(page).toEqual(composed);
      expect(hitIds(page)).toEqual(['u1', 'u2', 'u3', 'u4']);
      expect(page.total).toBe(4);
      expect(page.hits.map((hit) => [hit.subitems, hit.holderId])).toEqual([
        [1, 'r1'],
        [1, 'r1'],
        [0, 'r1'],
        [0, 'r2'],
      ]);
    });

    for (const key of SEARCH_ORDER_KEYS) {
      for (const descending of [false, true]) {
        it(`orders by ${key}${descending ? ', reversed' : ''}, text or not, a page at a time`, async () => {
          for (const text of ['council', undefined]) {
            if (key === 'score' && text === undefined) continue;
            const order = { key, descending };
            const whole = await both({ search: search({ text, order }) });
            expect(whole[0]).toEqual(whole[1]);
            const [page, composed] = await both({ search: search({ text, order, offset: 1, limit: 2 }) });
            expect(page).toEqual(composed);
            expect(hitIds(page)).toEqual(hitIds(whole[0]).slice(1, 3));
          }
        });
      }
    }

    it('searches a scope: its children, its descendants, or by the type of the scope', async () => {
      const requests: PageRequest[] = [
        { search: search({ scope: { id: 'r1', depth: 'children' } }), ids: ['r1'] },
        { search: search({ scope: { id: 'r1', depth: 'descendants' } }), ids: ['r1'] },
        { search: search({ text: 'council', scope: { id: 'u1', depth: 'children' } }), ids: ['u1'] },
        {
          search: search({ text: 'council', scope: { id: 'u1', depth: 'children' } }),
          deepScopeTypes: ['DocumentaryUnit'],
        },
        { search: search({ scope: { id: 'r1', depth: 'children' } }), deepScopeTypes: ['Repository'] },
        { search: search({ scope: { id: 'nl', depth: 'children' } }), deepScopeTypes: ['Repository'] },
        { search: search({ scope: { id: 'nowhere', depth: 'children' } }), ids: ['nowhere'] },
      ];
      const expected = [['u1'], ['u1', 'u2', 'u3'], ['u2'], ['u2', 'u3'], ['u1', 'u2', 'u3'], ['r1'], []];
      for (const [index, request] of requests.entries()) {
        const [page, composed] = await both(request);
        expect(page).toEqual(composed);
        expect(hitIds(page).sort()).toEqual(expected[index]);
      }
    });

    it('keeps the other ends of the links of an item', async () => {
      for (const text of [undefined, 'akten', 'minutes']) {
        const [page, composed] = await both({ search: search({ text }), linkedTo: 'u1', ids: ['u1'] });
        expect(page).toEqual(composed);
        expect(hitIds(page)).toEqual(text === 'minutes' ? [] : ['u4']);
      }
    });

    it('filters and counts facets over every hit, with the holders counted beside the page', async () => {
      const filters = [
        {},
        { languages: ['eng'] },
        { countries: ['nl'] },
        { holders: ['r2'] },
        { ids: ['u2', 'u4'] },
      ];
      for (const filter of filters) {
        const query = search({ filters: filter, facets: ['type', 'lang', 'country', 'holder'], limit: 1 });
        const [page, composed] = await both({ search: query });
        expect(page).toEqual(composed);
      }
      const [page] = await both({ search: search({ facets: ['holder'], limit: 1 }) });
      expect([...page.items.keys()].sort()).toEqual(['r1', 'r2']);
    });

    it('finds nothing for a structured query that keeps no word', async () => {
      const textQuery = { kind: 'words', text: '&& ..' } as const;
      const [page, composed] = await both({ search: search({ textQuery, facets: ['lang'] }), ids: ['u1'] });
      expect(page).toEqual(composed);
      expect(page.total).toBe(0);
    });

    it('counts exactly, or past countLimit over the first hits only, saying so', async () => {
      const requests: PageRequest[] = [
        { search: search({ text: 'council', limit: 1, facets: ['type', 'holder'] }), countLimit: 1 },
        {
          search: search({ text: 'council', scope: { id: 'r1', depth: 'descendants' }, limit: 1 }),
          ids: ['r1'],
          countLimit: 1,
        },
        { search: search({ limit: 1, facets: ['type'] }), countLimit: 1 },
        { search: search({ limit: 1 }), countLimit: 1 },
        { search: search({ types: ['Repository', 'Country'], limit: 1 }), countLimit: 1 },
        { search: search({ scope: { id: 'r1', depth: 'descendants' }, limit: 1 }), countLimit: 1 },
        // A bound above the hits changes nothing.
        { search: search({ text: 'council', facets: ['holder'] }), countLimit: 100 },
      ];
      for (const request of requests) {
        const [page, composed] = await both(request);
        const counted = countedHits(request)!;
        expect(composed.totalIsLowerBound).toBeUndefined();
        if (page.totalIsLowerBound === undefined) {
          expect(page).toEqual(composed);
          // A store that bounds its counts must say so once the hits reach the bound, but for
          // browsing everything unfiltered, which it may count exactly whatever the bound.
          const { text, facets, scope } = request.search!;
          const unfilteredBrowse = text === undefined && !facets?.length && scope === undefined;
          expect(countsBounded && !unfilteredBrowse && composed.total >= counted).toBe(false);
          continue;
        }
        expect(countsBounded).toBe(true);
        expect(page.total).toBeLessThanOrEqual(counted);
        expect(page.total).toBeGreaterThanOrEqual(page.hits.length);
        for (const counts of Object.values(page.facets ?? {})) {
          expect(counts.reduce((sum, { count }) => sum + count, 0)).toBeLessThanOrEqual(counted);
        }
        const every = await store.read((tx) =>
          composedPage(tx, { ...request, search: { ...request.search!, limit: 100 } }),
        );
        expect(hitIds(every)).toEqual(expect.arrayContaining(hitIds(page)));
        expect(page.hits).toHaveLength(1);
      }
    });

    it("reads items beside the page, a unit's holder and parent with them, and a record", async () => {
      const [page, composed] = await both({ ids: ['u2'], context: true, recordId: 'gone-u9' });
      expect({ ...page, record: undefined }).toEqual({ ...composed, record: undefined });
      expect([...page.items.keys()].sort()).toEqual(['r1', 'u1', 'u2']);
      const [missing, composedMissing] = await both({ ids: ['u9'], context: true, recordId: 'gone-u9' });
      expect(missing).toEqual(composedMissing);
      expect(missing.record).toEqual({
        id: 'gone-u9',
        type: 'PageTombstone',
        props: { removed: '2024-01-01' },
      });
      expect(missing.items.size).toBe(0);
    });
  });
}
