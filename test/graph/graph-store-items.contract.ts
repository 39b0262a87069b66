import { GraphStore, ItemWrite } from '../../src/graph/graph-store';
import {
  unit,
  unitWithEverything,
  repository,
  country,
  link,
  normalise,
  textQuery,
  ids,
} from './graph-store-fixtures';

/**
 * The `GraphStore` contract's items, edges and hierarchy, inside `describeGraphStoreContract`
 * (`current` gives the store it opened for the test).
 */
export function describeItemsContract(current: () => GraphStore): void {
  let store: GraphStore;
  beforeEach(() => {
    store = current();
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
}
