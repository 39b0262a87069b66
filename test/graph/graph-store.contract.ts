import { GraphStore, ItemWrite, RecordNode, RecordQuery, SearchQuery } from '../../src/graph/graph-store';
import { Bundle, Props } from '../../src/items/bundle';

/**
 * The contract of the `GraphStore` port, run against every adapter. It asserts port semantics only.
 *
 * `open` must give an empty store (its own file, database or wiped graph); `cleanup` closes the store
 * and releases what `open` made.
 */
export function describeGraphStoreContract(
  name: string,
  open: () => Promise<{ store: GraphStore; cleanup(): Promise<void> }>,
): void {
  describe(`GraphStore contract: ${name}`, () => {
    let store: GraphStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
    });

    afterEach(async () => {
      await cleanup();
    });

    const put = (...items: ItemWrite[]) => store.write((tx) => tx.putItems(items));

    describe('items', () => {
      it('round-trips bundles with nested dependents, hashes, edges and types of values', async () => {
        const before = new Date().toISOString();
        await put(country('nl'), repository('r1', 'nl'), unitWithEverything('u1', 'r1'));
        const after = new Date().toISOString();

        const stored = await store.read((tx) => tx.getItems(['u1', 'r1', 'missing']));
        expect([...stored.keys()].sort()).toEqual(['r1', 'u1']);

        const unit = stored.get('u1')!;
        expect(normalise(unit.bundle)).toEqual(normalise(unitWithEverything('u1', 'r1').bundle));
        expect(unit.hash).toBe('hash-u1');
        expect(unit.edges.heldBy).toEqual(['r1']);
        expect(unit.edges.hasPermissionScope).toEqual(['r1']);
        expect(unit.updated >= before && unit.updated <= after).toBe(true);
        expect(new Date(unit.updated).toISOString()).toBe(unit.updated);

        const data = unit.bundle.data;
        expect(typeof data.extentCount).toBe('number');
        expect(data.extentCount).toBe(3);
        expect(data.ratio).toBe(0.25);
        expect(data.published).toBe(true);
        expect(data.otherIdentifiers).toEqual(['old-1', 'old-2']);
        expect(data.singleton).toEqual(['only']);

        const repo = stored.get('r1')!;
        expect(normalise(repo.bundle)).toEqual(normalise(repository('r1', 'nl').bundle));
        expect(repo.edges.hasCountry).toEqual(['nl']);
      });

      it('round-trips ids, names and values with quotes, backslashes, control and astral characters', async () => {
        const odd = 'q"uote \\back\\slash \u0001\u001e\t\n \u2028 é 🗄️ ${x} </script>';
        const target = unit(`target ${odd}`);
        const written: ItemWrite = {
          ...unit(`u ${odd}`, {
            descriptions: [{ lang: 'eng', name: odd, text: `${odd}\n${odd}`, accessPoints: [odd] }],
            edges: { hasPermissionScope: [target.bundle.id] },
          }),
          hash: odd,
        };
        written.bundle.data[`key ${odd}`] = [odd, `${odd} again`];
        await put(target, written);

        // Read in a write (uncached), then twice in reads: the first fills the cache, the second
        // is answered from it.
        const reads = [
          await store.write((tx) => tx.getItems([written.bundle.id])),
          await store.read((tx) => tx.getItems([written.bundle.id])),
          await store.read((tx) => tx.getItems([written.bundle.id])),
        ];
        for (const read of reads) {
          const stored = read.get(written.bundle.id)!;
          expect(normalise(stored.bundle)).toEqual(normalise(written.bundle));
          expect(stored.hash).toBe(odd);
          expect(stored.edges.hasPermissionScope).toEqual([target.bundle.id]);
        }
      });

      it('sorts the targets of each edge type', async () => {
        await put(unit('b'), unit('c'), unit('a'));
        await put(link('l1', ['c', 'a', 'b']));
        const stored = await store.read((tx) => tx.getItems(['l1']));
        expect(stored.get('l1')!.edges.hasLinkTarget).toEqual(['a', 'b', 'c']);
      });

      it('replaces all dependents when an item is written again', async () => {
        await put(repository('r1'));
        await put(
          unit('u1', {
            parent: { heldBy: 'r1' },
            descriptions: [
              {
                lang: 'eng',
                name: 'Old English title',
                text: 'obsolete scope text',
                accessPoints: ['Krakow'],
              },
              { lang: 'fra', name: 'Titre ancien' },
            ],
          }),
        );
        const replacement = unit('u1', {
          parent: { heldBy: 'r1' },
          descriptions: [{ lang: 'eng', name: 'New English title', accessPoints: ['Vilnius'] }],
        });
        await put(replacement);

        await store.read(async (tx) => {
          const stored = (await tx.getItems(['u1'])).get('u1')!;
          expect(normalise(stored.bundle)).toEqual(normalise(replacement.bundle));
          expect(await tx.findAccessPoints('r1', ['Krakow'])).toEqual([]);
          expect((await tx.findAccessPoints('r1', ['Vilnius'])).map((m) => m.itemId)).toEqual(['u1']);
          expect((await tx.search(textQuery('obsolete'))).total).toBe(0);
          expect((await tx.search(textQuery('Titre'))).total).toBe(0);
          expect(ids(await tx.search(textQuery('New English')))).toEqual(['u1']);
        });
      });

      it('keeps edges to dependents that survive a rewrite and drops edges to those that do not', async () => {
        const original = unit('u1', {
          descriptions: [{ lang: 'eng', name: 'Unit', accessPoints: ['Kept', 'Dropped'] }],
        });
        await put(original);
        await put(link('l1', ['u1'], { hasLinkBody: ['u1.eng.ap0', 'u1.eng.ap1'] }));
        await put(unit('u1', { descriptions: [{ lang: 'eng', name: 'Unit', accessPoints: ['Kept'] }] }));

        const stored = await store.read((tx) => tx.getItems(['l1']));
        expect(stored.get('l1')!.edges.hasLinkBody).toEqual(['u1.eng.ap0']);
      });

      it('replaces edge types named in a write and keeps the types it does not name', async () => {
        await put(repository('r1'), repository('r2'), repository('r3'));
        await put(unit('u1', { edges: { heldBy: ['r1'], hasPermissionScope: ['r1'] } }));
        await put(unit('u1', { edges: { heldBy: ['r2', 'r3'] } }));

        let edges = (await store.read((tx) => tx.getItems(['u1']))).get('u1')!.edges;
        expect(edges.heldBy).toEqual(['r2', 'r3']);
        expect(edges.hasPermissionScope).toEqual(['r1']);

        await put(unit('u1', { edges: { heldBy: [] } }));
        edges = (await store.read((tx) => tx.getItems(['u1']))).get('u1')!.edges;
        expect(edges.heldBy ?? []).toEqual([]);
        expect(edges.hasPermissionScope).toEqual(['r1']);
        expect(await store.read((tx) => tx.incoming('r2', 'heldBy'))).toEqual([]);
      });

      it('answers hashes and types for existing items only', async () => {
        await put(country('nl'), repository('r1', 'nl'), unit('u1', { parent: { heldBy: 'r1' } }));
        await store.read(async (tx) => {
          const hashes = await tx.getHashes(['u1', 'r1', 'nope', 'u1.eng']);
          expect(Object.fromEntries(hashes)).toEqual({ u1: 'hash-u1', r1: 'hash-r1' });
          const types = await tx.getTypes(['nl', 'u1', 'nope', 'u1.eng']);
          expect(Object.fromEntries(types)).toEqual({ nl: 'Country', u1: 'DocumentaryUnit' });
          expect((await tx.getItems(['u1.eng'])).size).toBe(0);
          expect((await tx.getHashes([])).size).toBe(0);
        });
      });

      it('updates the stored hash when an item is rewritten', async () => {
        await put(unit('u1'));
        await put({ ...unit('u1'), hash: 'hash-u1-v2' });
        const hashes = await store.read((tx) => tx.getHashes(['u1']));
        expect(hashes.get('u1')).toBe('hash-u1-v2');
      });

      it('sets stored hashes alone: content and update time stay, unknown ids are left', async () => {
        await put(unit('u1', { descriptions: [{ lang: 'eng', name: 'Kept' }] }));
        const before = (await store.read((tx) => tx.getItems(['u1']))).get('u1')!;
        await store.write((tx) =>
          tx.setHashes(
            new Map([
              ['u1', 'rehashed'],
              ['nope', 'ignored'],
            ]),
          ),
        );
        await store.read(async (tx) => {
          expect(Object.fromEntries(await tx.getHashes(['u1', 'nope']))).toEqual({ u1: 'rehashed' });
          const after = (await tx.getItems(['u1'])).get('u1')!;
          expect(after).toEqual({ ...before, hash: 'rehashed' });
        });
      });

      it('deletes items with their dependents and every edge that touches them', async () => {
        await put(
          repository('r1'),
          unit('u1', {
            parent: { heldBy: 'r1' },
            descriptions: [{ lang: 'eng', name: 'Doomed unit', accessPoints: ['Doomed place'] }],
          }),
          unit('u2', { parent: { childOf: 'u1' } }),
          unit('u3', { parent: { heldBy: 'r1' } }),
        );
        await put(link('l1', ['u1', 'u3'], { hasLinkBody: ['u1.eng.ap0'] }));

        await store.write((tx) => tx.deleteItems(['u1']));

        await store.read(async (tx) => {
          expect((await tx.getItems(['u1'])).size).toBe(0);
          expect((await tx.getHashes(['u1'])).size).toBe(0);
          const remaining = await tx.getItems(['l1', 'u2', 'u3']);
          expect(remaining.get('l1')!.edges.hasLinkTarget).toEqual(['u3']);
          expect(remaining.get('l1')!.edges.hasLinkBody ?? []).toEqual([]);
          expect(remaining.get('u2')!.edges.childOf ?? []).toEqual([]);
          expect(await tx.incoming('u1', 'hasLinkTarget')).toEqual([]);
          expect(await tx.incoming('r1', 'heldBy')).toEqual(['u3']);
          expect((await tx.countChildren(['r1'])).get('r1')).toBe(1);
          expect(await tx.findAccessPoints('r1', ['Doomed place'])).toEqual([]);
          expect((await tx.search(textQuery('Doomed'))).total).toBe(0);
          expect((await tx.ancestors(['u2'])).get('u2') ?? []).toEqual([]);
        });
      });

      it('allows an id to be written again after it was deleted', async () => {
        await put(unit('u1', { descriptions: [{ lang: 'eng', name: 'First life' }] }));
        await store.write((tx) => tx.deleteItems(['u1']));
        const reborn = unit('u1', { descriptions: [{ lang: 'eng', name: 'Second life' }] });
        await put(reborn);
        const stored = await store.read((tx) => tx.getItems(['u1']));
        expect(normalise(stored.get('u1')!.bundle)).toEqual(normalise(reborn.bundle));
      });
    });

    describe('edges', () => {
      it('adds edges idempotently', async () => {
        await put(unit('u1'), unit('u2'), link('l1', []));
        const edge = { from: 'l1', type: 'hasLinkTarget' as const, to: 'u1' };
        await store.write((tx) => tx.addEdges([edge, edge, { ...edge, to: 'u2' }]));
        await store.write((tx) => tx.addEdges([edge]));
        await store.read(async (tx) => {
          expect((await tx.getItems(['l1'])).get('l1')!.edges.hasLinkTarget).toEqual(['u1', 'u2']);
          expect(await tx.incoming('u1', 'hasLinkTarget')).toEqual(['l1']);
        });
      });

      it('retargets edges of one type and leaves other types alone', async () => {
        await put(repository('r1'), unit('u1'), unit('u2'), unit('child', { parent: { childOf: 'u1' } }));
        await put(link('l1', ['u1']), link('l2', ['u1', 'u2']));

        await store.write((tx) => tx.retargetEdges('u1', 'u2', 'hasLinkTarget'));

        await store.read(async (tx) => {
          expect(await tx.incoming('u1', 'hasLinkTarget')).toEqual([]);
          expect((await tx.incoming('u2', 'hasLinkTarget')).sort()).toEqual(['l1', 'l2']);
          expect((await tx.getItems(['l2'])).get('l2')!.edges.hasLinkTarget).toEqual(['u2']);
          expect(await tx.incoming('u1', 'childOf')).toEqual(['child']);
        });
      });

      it('lists the sources of incoming edges of one type', async () => {
        await put(
          repository('r1'),
          unit('a', { parent: { heldBy: 'r1' } }),
          unit('b', { parent: { heldBy: 'r1' } }),
        );
        await put(unit('c', { edges: { hasPermissionScope: ['r1'] } }));
        await store.read(async (tx) => {
          expect((await tx.incoming('r1', 'heldBy')).sort()).toEqual(['a', 'b']);
          expect(await tx.incoming('r1', 'hasPermissionScope')).toEqual(['c']);
          expect(await tx.incoming('r1', 'childOf')).toEqual([]);
        });
      });
    });

    describe('hierarchy', () => {
      beforeEach(async () => {
        await put(
          country('nl'),
          repository('r1', 'nl'),
          unit('u1', { parent: { heldBy: 'r1' } }),
          unit('u4', { parent: { heldBy: 'r1' } }),
          unit('u2', { parent: { childOf: 'u1' } }),
          unit('u3', { parent: { childOf: 'u2' } }),
        );
      });

      it('gives ancestors parent first, through childOf, heldBy and hasCountry', async () => {
        const chains = await store.read((tx) => tx.ancestors(['u3', 'u1', 'r1', 'nl', 'missing']));
        expect(chains.get('u3')).toEqual([
          { id: 'u2', type: 'DocumentaryUnit' },
          { id: 'u1', type: 'DocumentaryUnit' },
          { id: 'r1', type: 'Repository' },
          { id: 'nl', type: 'Country' },
        ]);
        expect(chains.get('u1')).toEqual([
          { id: 'r1', type: 'Repository' },
          { id: 'nl', type: 'Country' },
        ]);
        expect(chains.get('r1')).toEqual([{ id: 'nl', type: 'Country' }]);
        expect(chains.get('nl') ?? []).toEqual([]);
        expect(chains.get('missing') ?? []).toEqual([]);
      });

      it('counts direct children', async () => {
        const counts = await store.read((tx) => tx.countChildren(['nl', 'r1', 'u1', 'u3']));
        expect(Object.fromEntries(counts)).toEqual({ nl: 1, r1: 2, u1: 1, u3: 0 });
      });

      it('lists the subtree below an item, parents before children', async () => {
        const entries = await store.read((tx) => tx.subtree('r1'));
        expect(entries.map((e) => e.id).sort()).toEqual(['u1', 'u2', 'u3', 'u4']);
        const position = new Map(entries.map((e, index) => [e.id, index]));
        for (const entry of entries) {
          expect(entry.type).toBe('DocumentaryUnit');
          expect(entry.localId).toBe(`local-${entry.id}`);
          if (entry.parentId !== 'r1')
            expect(position.get(entry.parentId)!).toBeLessThan(position.get(entry.id)!);
        }
        expect(Object.fromEntries(entries.map((e) => [e.id, e.parentId]))).toEqual({
          u1: 'r1',
          u4: 'r1',
          u2: 'u1',
          u3: 'u2',
        });
        expect((await store.read((tx) => tx.subtree('nl'))).map((e) => e.id).sort()).toEqual([
          'r1',
          'u1',
          'u2',
          'u3',
          'u4',
        ]);
        expect(await store.read((tx) => tx.subtree('u3'))).toEqual([]);
      });
    });

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
        expect(
          ids(await search({ text: 'Berlin', types: ['DocumentaryUnit'], offset: 0, limit: 10 })),
        ).toEqual([]);
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

    describe('records', () => {
      const log = (id: string, user: string, started: string, count: number): RecordNode => ({
        id,
        type: 'ImportLog',
        props: { user, started, count, ok: count > 0, items: [`${id}-a`, `${id}-b`] },
      });
      const logs = [
        log('log1', 'alice', '2024-01-01T10:00:00.000Z', 5),
        log('log2', 'bob', '2024-01-02T10:00:00.000Z', 0),
        log('log3', 'alice', '2024-01-03T10:00:00.000Z', 12),
        log('log4', 'alice', '2024-01-04T10:00:00.000Z', 7),
        log('log5', 'bob', '2024-01-05T10:00:00.000Z', 3),
      ];

      beforeEach(async () => {
        await store.write((tx) =>
          tx.putRecords([...logs, { id: 'tok1', type: 'Token', props: { user: 'alice', role: 'portal' } }]),
        );
      });

      const find = (query: Omit<RecordQuery, 'type'>) =>
        store.read((tx) => tx.findRecords({ type: 'ImportLog', ...query }));

      it('gets a record by id with its values typed as written', async () => {
        await store.read(async (tx) => {
          expect(await tx.getRecord('log3')).toEqual(logs[2]);
          expect(await tx.getRecord('nope')).toBeUndefined();
        });
      });

      it('replaces a record written again', async () => {
        await store.write((tx) =>
          tx.putRecords([{ id: 'log1', type: 'ImportLog', props: { user: 'carol' } }]),
        );
        expect(await store.read((tx) => tx.getRecord('log1'))).toEqual({
          id: 'log1',
          type: 'ImportLog',
          props: { user: 'carol' },
        });
      });

      it('filters by type, equality and range, orders and pages', async () => {
        const all = await find({});
        expect(all.total).toBe(5);
        expect(all.records.map((r) => r.id).sort()).toEqual(['log1', 'log2', 'log3', 'log4', 'log5']);

        const alice = await find({ equals: { user: 'alice' }, orderBy: { property: 'started' } });
        expect(alice.records.map((r) => r.id)).toEqual(['log1', 'log3', 'log4']);
        expect((await find({ equals: { user: 'alice', count: 12 } })).records.map((r) => r.id)).toEqual([
          'log3',
        ]);
        expect((await find({ equals: { ok: false } })).records.map((r) => r.id)).toEqual(['log2']);

        const januaryMiddle = await find({
          range: { property: 'started', from: '2024-01-02T10:00:00.000Z', to: '2024-01-04T10:00:00.000Z' },
          orderBy: { property: 'started', descending: true },
        });
        expect(januaryMiddle.records.map((r) => r.id)).toEqual(['log4', 'log3', 'log2']);

        const fromOnly = await find({
          range: { property: 'started', from: '2024-01-04' },
          orderBy: { property: 'started' },
        });
        expect(fromOnly.records.map((r) => r.id)).toEqual(['log4', 'log5']);
        const numeric = await find({
          range: { property: 'count', from: 4, to: 10 },
          orderBy: { property: 'count' },
        });
        expect(numeric.records.map((r) => r.id)).toEqual(['log1', 'log4']);

        const page = await find({ orderBy: { property: 'started', descending: true }, offset: 1, limit: 2 });
        expect(page.total).toBe(5);
        expect(page.records.map((r) => r.id)).toEqual(['log4', 'log3']);
        expect(page.records[0]).toEqual(logs[3]);

        const tokens = await store.read((tx) => tx.findRecords({ type: 'Token', equals: { user: 'alice' } }));
        expect(tokens.records.map((r) => r.id)).toEqual(['tok1']);
      });
    });

    describe('transactions', () => {
      it('commits when the work resolves and returns its value', async () => {
        const value = await store.write(async (tx) => {
          await tx.putItems([unit('u1')]);
          return 42;
        });
        expect(value).toBe(42);
        expect((await store.read((tx) => tx.getHashes(['u1']))).get('u1')).toBe('hash-u1');
      });

      it('rolls back everything when the work throws', async () => {
        await put(unit('kept'));
        await expect(
          store.write(async (tx) => {
            await tx.putItems([unit('u1')]);
            await tx.deleteItems(['kept']);
            await tx.putRecords([{ id: 'rec', type: 'Note', props: { a: 1 } }]);
            throw new Error('import failed');
          }),
        ).rejects.toThrow('import failed');
        await store.read(async (tx) => {
          expect([...(await tx.getHashes(['u1', 'kept'])).keys()]).toEqual(['kept']);
          expect(await tx.getRecord('rec')).toBeUndefined();
        });
      });

      it('rolls back a dry run after the work saw its own writes', async () => {
        const seen = await store.write(
          async (tx) => {
            await tx.putItems([unit('u1', { descriptions: [{ lang: 'eng', name: 'Dry run' }] })]);
            await tx.putRecords([{ id: 'rec', type: 'Note', props: { a: 1 } }]);
            return {
              hashes: Object.fromEntries(await tx.getHashes(['u1'])),
              hits: ids(await tx.search(textQuery('dry'))),
              record: await tx.getRecord('rec'),
            };
          },
          { commit: false },
        );
        expect(seen).toEqual({
          hashes: { u1: 'hash-u1' },
          hits: ['u1'],
          record: { id: 'rec', type: 'Note', props: { a: 1 } },
        });
        await store.read(async (tx) => {
          expect((await tx.getHashes(['u1'])).size).toBe(0);
          expect((await tx.search(textQuery('dry'))).total).toBe(0);
          expect(await tx.getRecord('rec')).toBeUndefined();
        });
      });

      it('lets a write read its own uncommitted writes through every query', async () => {
        await store.write(async (tx) => {
          await tx.putItems([repository('r1'), unit('u1', { parent: { heldBy: 'r1' } })]);
          await tx.putItems([unit('u2', { parent: { childOf: 'u1' } })]);
          expect((await tx.getItems(['u2'])).get('u2')!.edges.childOf).toEqual(['u1']);
          expect(Object.fromEntries(await tx.getTypes(['u2']))).toEqual({ u2: 'DocumentaryUnit' });
          expect((await tx.ancestors(['u2'])).get('u2')!.map((a) => a.id)).toEqual(['u1', 'r1']);
          expect((await tx.countChildren(['u1'])).get('u1')).toBe(1);
          expect((await tx.subtree('r1')).map((e) => e.id)).toEqual(['u1', 'u2']);
          expect(await tx.incoming('u1', 'childOf')).toEqual(['u2']);
          expect(
            ids(await tx.search({ scope: { id: 'r1', depth: 'descendants' }, offset: 0, limit: 10 })),
          ).toEqual(['u1', 'u2']);
        });
      });

      it('does not make a read wait for an open write, nor show it uncommitted data', async () => {
        await put(unit('before'));
        const gate = deferred();
        const written = deferred();
        const writing = store.write(async (tx) => {
          await tx.putItems([unit('during')]);
          written.resolve();
          await gate.promise;
        });
        await written.promise;

        // Resolves while the writer is still open: a read that waited for it would never finish.
        const seen = await store.read((tx) => tx.getHashes(['before', 'during']));
        expect([...seen.keys()]).toEqual(['before']);

        gate.resolve();
        await writing;
        expect([...(await store.read((tx) => tx.getHashes(['during']))).keys()]).toEqual(['during']);
      });

      it('queues concurrent writers so that both succeed, one after the other', async () => {
        const events: string[] = [];
        const gate = deferred();
        const firstStarted = deferred();
        const first = store.write(async (tx) => {
          events.push('first:start');
          firstStarted.resolve();
          await gate.promise;
          await tx.putItems([unit('u1')]);
          events.push('first:end');
        });
        await firstStarted.promise;
        const second = store.write(async (tx) => {
          events.push('second:start');
          await tx.putItems([unit('u2')]);
          events.push('second:end');
        });
        await new Promise((resolve) => setImmediate(resolve));
        gate.resolve();
        await Promise.all([first, second]);

        expect(events).toEqual(['first:start', 'first:end', 'second:start', 'second:end']);
        expect([...(await store.read((tx) => tx.getHashes(['u1', 'u2']))).keys()].sort()).toEqual([
          'u1',
          'u2',
        ]);
      });

      it('answers ping', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });
  });
}

// ---- fixtures -------------------------------------------------------------------------------

interface DescriptionSpec {
  lang: string;
  name: string;
  text?: string;
  accessPoints?: string[];
}

interface UnitSpec {
  parent?: { heldBy: string } | { childOf: string };
  otherIdentifiers?: string[];
  descriptions?: DescriptionSpec[];
  edges?: ItemWrite['edges'];
}

function node(id: string, type: Bundle['type'], data: Props, relations: Bundle['relations'] = {}): Bundle {
  return { id, type, data, relations };
}

function description(itemId: string, spec: DescriptionSpec): Bundle {
  const id = `${itemId}.${spec.lang}`;
  const data: Props = { name: spec.name, languageCode: spec.lang };
  if (spec.text !== undefined) data.scopeAndContent = spec.text;
  const accessPoints = (spec.accessPoints ?? []).map((name, index) =>
    node(`${id}.ap${index}`, 'AccessPoint', { name, type: 'place' }),
  );
  return node(id, 'DocumentaryUnitDescription', data, accessPoints.length ? { relatesTo: accessPoints } : {});
}

/** A unit whose local id is `local-<id>`; its item-level edges come from `parent` and `edges`. */
export function unit(id: string, spec: UnitSpec = {}): ItemWrite {
  const data: Props = { identifier: `local-${id}` };
  if (spec.otherIdentifiers) data.otherIdentifiers = spec.otherIdentifiers;
  const descriptions = (spec.descriptions ?? []).map((d) => description(id, d));
  const edges: ItemWrite['edges'] = { ...spec.edges };
  if (spec.parent && 'heldBy' in spec.parent) edges.heldBy = [spec.parent.heldBy];
  if (spec.parent && 'childOf' in spec.parent) edges.childOf = [spec.parent.childOf];
  return {
    bundle: node(id, 'DocumentaryUnit', data, descriptions.length ? { describes: descriptions } : {}),
    hash: `hash-${id}`,
    edges,
  };
}

function unitWithEverything(id: string, repositoryId: string): ItemWrite {
  const dates = (descriptionId: string) => [
    node(`${descriptionId}.date0`, 'DatePeriod', {
      startDate: '1939-09-01',
      endDate: '1945-05-08',
      type: 'creation',
    }),
  ];
  const descriptionOf = (lang: string, name: string) => {
    const descriptionId = `${id}.${lang}`;
    return node(
      descriptionId,
      'DocumentaryUnitDescription',
      { name, languageCode: lang, scopeAndContent: `Scope ${lang}`, parallelFormsOfName: [`${name} (alt)`] },
      {
        hasDate: dates(descriptionId),
        relatesTo: [
          node(`${descriptionId}.ap0`, 'AccessPoint', { name: 'Warsaw', type: 'place' }),
          node(`${descriptionId}.ap1`, 'AccessPoint', { name: 'Jewish councils', type: 'subject' }),
        ],
        hasUnknownProperty: [node(`${descriptionId}.up0`, 'UnknownProperty', { key: 'odd', level: 2 })],
      },
    );
  };
  return {
    bundle: node(
      id,
      'DocumentaryUnit',
      {
        identifier: `local-${id}`,
        otherIdentifiers: ['old-1', 'old-2'],
        singleton: ['only'],
        extentCount: 3,
        ratio: 0.25,
        published: true,
      },
      { describes: [descriptionOf('eng', 'Ghetto records'), descriptionOf('pol', 'Akta getta')] },
    ),
    hash: `hash-${id}`,
    edges: { heldBy: [repositoryId], hasPermissionScope: [repositoryId] },
  };
}

export function repository(id: string, countryId?: string, name = `Repository ${id}`): ItemWrite {
  const descriptionId = `${id}.eng`;
  const address = node(`${descriptionId}.address`, 'Address', {
    street: 'Herengracht 380',
    municipality: 'Amsterdam',
    email: ['info@example.org'],
  });
  return {
    bundle: node(
      id,
      'Repository',
      { identifier: `local-${id}` },
      {
        describes: [
          node(
            descriptionId,
            'RepositoryDescription',
            { name, languageCode: 'eng' },
            { hasAddress: [address] },
          ),
        ],
      },
    ),
    hash: `hash-${id}`,
    edges: countryId ? { hasCountry: [countryId] } : {},
  };
}

export function country(id: string, name = id.toUpperCase()): ItemWrite {
  return { bundle: node(id, 'Country', { identifier: id, name }), hash: `hash-${id}` };
}

function link(id: string, targets: string[], edges: ItemWrite['edges'] = {}): ItemWrite {
  return {
    bundle: node(id, 'Link', { identifier: id, type: 'associative' }),
    hash: `hash-${id}`,
    edges: { hasLinkTarget: targets, ...edges },
  };
}

/** The bundle with dependents sorted by id and empty relations dropped: the port keeps no order. */
function normalise(bundle: Bundle): Bundle {
  const relations: Bundle['relations'] = {};
  for (const [relation, children] of Object.entries(bundle.relations) as [
    keyof Bundle['relations'],
    Bundle[],
  ][]) {
    if (children.length === 0) continue;
    relations[relation] = children.map(normalise).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return { id: bundle.id, type: bundle.type, data: bundle.data, relations };
}

function textQuery(text: string) {
  return { text, offset: 0, limit: 100 };
}

function ids(result: { hits: { id: string }[] }): string[] {
  return result.hits.map((hit) => hit.id);
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
