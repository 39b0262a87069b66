import { GraphStore, ItemWrite, SearchQuery } from '../../src/graph/graph-store';
import { unit, repository, country, textQuery, ids } from './graph-store-fixtures';

/**
 * The `GraphStore` contract's search and access points, inside `describeGraphStoreContract`
 * (`current` gives the store it opened for the test).
 */
export function describeSearchBasicsContract(current: () => GraphStore): void {
  let store: GraphStore;
  beforeEach(() => {
    store = current();
  });

  const put = (...items: ItemWrite[]) => store.write((tx) => tx.putItems(items));

  describe('search', () => {
    beforeEach(async () => {
      await put(
        country('nl', 'Netherlands'),
        country('de', 'Germany'),
        repository('r1', 'nl', 'Amsterdam Archive'),
        repository('r2', 'de', 'Berlin Archive'),
        unit('u1', {
          parent: { heldBy: 'r1' },
          otherIdentifiers: ['signature-77'],
          descriptions: [{ lang: 'eng', name: 'Auschwitz survivors', text: 'Testimonies near the border' }],
        }),
        unit('u2', {
          parent: { childOf: 'u1' },
          descriptions: [{ lang: 'eng', name: 'Letters', text: 'Letters written by Auschwitz survivors' }],
        }),
        unit('u3', {
          parent: { childOf: 'u2' },
          descriptions: [{ lang: 'deu', name: 'Fotografien', text: 'Photographs of the camp' }],
        }),
        unit('u4', {
          parent: { heldBy: 'r1' },
          descriptions: [{ lang: 'eng', name: 'Camp records', text: 'Records of the Westerbork camp' }],
        }),
        unit('u5', {
          parent: { heldBy: 'r2' },
          descriptions: [{ lang: 'eng', name: 'Camp records', text: 'Records of the Westerbork camp' }],
        }),
      );
    });

    const search = (query: SearchQuery) => store.read((tx) => tx.search(query));

    it('finds text in names, identifiers, other identifiers and description text', async () => {
      expect(ids(await search(textQuery('Netherlands')))).toEqual(['nl']);
      expect(ids(await search(textQuery('local-u3')))).toEqual(['u3']);
      expect(ids(await search(textQuery('signature-77')))).toEqual(['u1']);
      expect(ids(await search(textQuery('Photographs')))).toEqual(['u3']);
      expect(ids(await search(textQuery('Berlin')))).toEqual(['r2']);
    });

    it('matches every term, by prefix, ignoring case', async () => {
      expect(ids(await search(textQuery('ausch')))).toEqual(['u1', 'u2']);
      expect(ids(await search(textQuery('camp westerbork')))).toEqual(['u4', 'u5']);
      expect(ids(await search(textQuery('camp photo')))).toEqual(['u3']);
      expect((await search(textQuery('camp zzzunknown'))).total).toBe(0);
    });

    it('ranks name matches above text matches, then orders by id', async () => {
      // u1 has the words in its name, u2 only in its text: relevance beats id order.
      await put(
        unit('a-text-only', {
          descriptions: [{ lang: 'eng', name: 'Diaries', text: 'Diaries mention Theresienstadt' }],
        }),
        unit('z-named', { descriptions: [{ lang: 'eng', name: 'Theresienstadt', text: 'Diaries' }] }),
      );
      expect(ids(await search(textQuery('Theresienstadt')))).toEqual(['z-named', 'a-text-only']);
      // u4 and u5 are indexed alike: ties go by id.
      expect(ids(await search(textQuery('Westerbork')))).toEqual(['u4', 'u5']);
    });

    it('keeps only the types asked for, OR-ed', async () => {
      expect(ids(await search({ types: ['Repository', 'Country'], offset: 0, limit: 10 }))).toEqual([
        'de',
        'nl',
        'r1',
        'r2',
      ]);
      expect(ids(await search({ text: 'Berlin', types: ['DocumentaryUnit'], offset: 0, limit: 10 }))).toEqual(
        [],
      );
      expect(ids(await search({ text: 'archive', types: ['Repository'], offset: 0, limit: 10 }))).toEqual([
        'r1',
        'r2',
      ]);
    });

    it('keeps only the types asked for when one of several words is found in those types alone', async () => {
      await put(
        repository('r-polder', undefined, 'Polder archive'),
        unit('u-polder', { descriptions: [{ lang: 'eng', name: 'Polder archive maps', text: 'Dykes' }] }),
      );
      const found = (text: string, type: 'Repository' | 'DocumentaryUnit') =>
        search({ text, types: [type], offset: 0, limit: 10 }).then(ids);
      // "Polder" and "archive" are in both; "Amsterdam" (an address) only in the repository, "maps" in units.
      expect(await found('polder amsterdam', 'Repository')).toEqual(['r-polder']);
      expect(await found('polder amsterdam', 'DocumentaryUnit')).toEqual([]);
      expect(await found('polder maps', 'DocumentaryUnit')).toEqual(['u-polder']);
      expect(await found('polder maps', 'Repository')).toEqual([]);
      expect(await found('polder archive', 'Repository')).toEqual(['r-polder']);
    });

    it('searches the children or the descendants of a scope', async () => {
      const children = (id: string, text?: string) =>
        search({ text, scope: { id, depth: 'children' }, offset: 0, limit: 10 });
      const descendants = (id: string, text?: string) =>
        search({ text, scope: { id, depth: 'descendants' }, offset: 0, limit: 10 });

      expect(ids(await children('nl'))).toEqual(['r1']);
      expect(ids(await children('r1'))).toEqual(['u1', 'u4']);
      expect(ids(await children('u1'))).toEqual(['u2']);
      expect(ids(await children('r1', 'camp'))).toEqual(['u4']);
      expect(ids(await descendants('r1'))).toEqual(['u1', 'u2', 'u3', 'u4']);
      expect(ids(await descendants('u1', 'camp'))).toEqual(['u3']);
      expect(ids(await descendants('nl', 'Westerbork'))).toEqual(['u4']);
      expect((await children('u3')).total).toBe(0);
      expect((await descendants('missing', 'camp')).total).toBe(0);
    });

    it('follows the hierarchy as it is rewritten, moved and cut', async () => {
      const below = async (id: string, text?: string) =>
        ids(await search({ text, scope: { id, depth: 'descendants' }, offset: 0, limit: 10 }));
      // u9 arrives before its parent u8.
      await put(unit('u9', { parent: { childOf: 'u8' } }));
      await put(unit('u8', { parent: { heldBy: 'r2' } }));
      expect(await below('r2')).toEqual(['u5', 'u8', 'u9']);

      await put(unit('u1', { parent: { heldBy: 'r2' } }));
      expect(await below('r1')).toEqual(['u4']);
      expect(await below('r2')).toEqual(['u1', 'u2', 'u3', 'u5', 'u8', 'u9']);
      expect(await below('de', 'Photographs')).toEqual(['u3']);

      await store.write((tx) => tx.retargetEdges('u1', 'u4', 'childOf'));
      expect(await below('u1')).toEqual([]);
      expect(await below('r1', 'Photographs')).toEqual(['u3']);

      await store.write((tx) => tx.deleteItems(['u4']));
      expect(await below('r1')).toEqual([]);
      expect(await below('u2')).toEqual(['u3']);

      await store.write((tx) => tx.addEdges([{ from: 'u2', type: 'childOf', to: 'u9' }]));
      expect(await below('r2')).toEqual(['u1', 'u2', 'u3', 'u5', 'u8', 'u9']);
      expect((await store.read((tx) => tx.ancestors(['u3']))).get('u3')!.map((a) => a.id)).toEqual([
        'u2',
        'u9',
        'u8',
        'r2',
        'de',
      ]);
    });

    it('answers a repeated search anew after a write', async () => {
      const query = { text: 'records', offset: 0, limit: 10 };
      expect(ids(await search(query))).toEqual(['u4', 'u5']);
      expect((await store.read((tx) => tx.countChildren(['r1']))).get('r1')).toBe(2);
      await put(
        unit('u6', { parent: { heldBy: 'r1' }, descriptions: [{ lang: 'eng', name: 'More records' }] }),
      );
      expect(ids(await search(query)).sort()).toEqual(['u4', 'u5', 'u6']);
      expect((await store.read((tx) => tx.countChildren(['r1']))).get('r1')).toBe(3);
    });

    it('pages with offset and limit and reports the total', async () => {
      const all = await search({ offset: 0, limit: 100 });
      expect(ids(all)).toEqual(['de', 'nl', 'r1', 'r2', 'u1', 'u2', 'u3', 'u4', 'u5']);
      expect(all.total).toBe(9);
      expect(all.hits[0]).toEqual({ id: 'de', type: 'Country' });

      const pages: string[] = [];
      for (let offset = 0; offset < all.total; offset += 4) {
        const page = await search({ offset, limit: 4 });
        expect(page.total).toBe(9);
        expect(page.hits.length).toBeLessThanOrEqual(4);
        pages.push(...ids(page));
      }
      expect(pages).toEqual(ids(all));

      const textPage = await search({ text: 'camp', offset: 1, limit: 2 });
      expect(textPage.total).toBe(3);
      expect(ids(textPage)).toEqual(ids(await search(textQuery('camp'))).slice(1, 3));
      expect((await search({ offset: 50, limit: 10 })).hits).toEqual([]);
    });

    it('pages a blank search deep into its hits in id order, by type, as the store is now', async () => {
      // Past a thousand hits, where a store may page by other means than near the start.
      const many = Array.from({ length: 1_300 }, (_, n) =>
        n % 10 === 0 ? repository(`deep-r${n}`) : unit(`deep-u${String(n).padStart(4, '0')}`),
      );
      await put(...many);
      const written: [string, string][] = [
        ...many.map(({ bundle }): [string, string] => [bundle.id, bundle.type]),
        ...['nl', 'de'].map((id): [string, string] => [id, 'Country']),
        ...['r1', 'r2'].map((id): [string, string] => [id, 'Repository']),
        ...['u1', 'u2', 'u3', 'u4', 'u5'].map((id): [string, string] => [id, 'DocumentaryUnit']),
      ];
      // Ids are ASCII here: JavaScript's order of code units is the stores' byte order.
      const expected = (types: string[]) =>
        written
          .filter(([, type]) => types.includes(type))
          .map(([id]) => id)
          .sort();
      const units = expected(['DocumentaryUnit']);
      expect(units.length).toBeGreaterThan(1_020);
      const page = await search({ types: ['DocumentaryUnit'], offset: 1_000, limit: 20 });
      expect(page.total).toBe(units.length);
      expect(ids(page)).toEqual(units.slice(1_000, 1_020));
      const mixed = expected(['DocumentaryUnit', 'Repository', 'Country']);
      expect(ids(await search({ offset: 1_050, limit: 30 }))).toEqual(mixed.slice(1_050, 1_080));

      await put(unit('deep-a'), unit('deep-u0000a'));
      const after = await search({ types: ['DocumentaryUnit'], offset: 1_000, limit: 20 });
      expect(after.total).toBe(units.length + 2);
      expect(ids(after)).toEqual([...units, 'deep-a', 'deep-u0000a'].sort().slice(1_000, 1_020));
    });

    it('treats blank text as everything', async () => {
      const everything = await search({ offset: 0, limit: 100 });
      expect(ids(await search({ text: '   ', offset: 0, limit: 100 }))).toEqual(ids(everything));
      expect(ids(await search({ text: '', offset: 0, limit: 100 }))).toEqual(ids(everything));
    });

    it('treats query syntax as plain words', async () => {
      const hostile = [
        '"',
        '*',
        'AND (',
        'NEAR',
        'NOT',
        'OR',
        'a OR b',
        'names:x',
        '^camp',
        '-camp',
        "'",
        ')',
        '{x}',
      ];
      for (const text of hostile) {
        await expect(search(textQuery(text))).resolves.toEqual(
          expect.objectContaining({ total: expect.any(Number) }),
        );
      }
      expect(ids(await search(textQuery('NEAR')))).toEqual(['u1']);
      expect(ids(await search(textQuery('"Westerbork camp"')))).toEqual(['u4', 'u5']);
      expect(ids(await search(textQuery('camp AND (Westerbork')))).toEqual([]);
    });
  });

  describe('access points', () => {
    it('finds access points by exact name within the subtree of a scope', async () => {
      await put(
        repository('r1'),
        repository('r2'),
        unit('u1', {
          parent: { heldBy: 'r1' },
          descriptions: [{ lang: 'eng', name: 'Top', accessPoints: ['Berlin', 'Berlin-Mitte'] }],
        }),
        unit('u2', {
          parent: { childOf: 'u1' },
          descriptions: [
            { lang: 'eng', name: 'Child', accessPoints: ['Berlin'] },
            { lang: 'deu', name: 'Kind', accessPoints: ['Warschau'] },
          ],
        }),
        unit('u3', {
          parent: { heldBy: 'r2' },
          descriptions: [{ lang: 'eng', name: 'Other', accessPoints: ['Berlin'] }],
        }),
      );

      const matches = await store.read((tx) => tx.findAccessPoints('r1', ['Berlin', 'Warschau', 'Berl']));
      const sorted = [...matches].sort((a, b) => a.accessPointId.localeCompare(b.accessPointId));
      expect(sorted).toEqual([
        { accessPointId: 'u1.eng.ap0', itemId: 'u1', name: 'Berlin', type: 'place' },
        { accessPointId: 'u2.deu.ap0', itemId: 'u2', name: 'Warschau', type: 'place' },
        { accessPointId: 'u2.eng.ap0', itemId: 'u2', name: 'Berlin', type: 'place' },
      ]);
      expect(await store.read((tx) => tx.findAccessPoints('u2', ['Berlin']))).toEqual([]);
      expect(await store.read((tx) => tx.findAccessPoints('r1', []))).toEqual([]);
    });
  });
}
