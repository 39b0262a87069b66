import { ChildPage, GraphStore, ItemWrite } from '../../src/graph/graph-store';
import { describeGraphStoreContract } from './graph-store.contract';
import { country, repository, unit } from './graph-store-fixtures';

type OpenStore = Parameters<typeof describeGraphStoreContract>[1];

/**
 * The port's contract for the subtree read a level at a time (`children`), which an EAD export
 * walks in pages so that a finding aid of any size is written in bounded memory. `open` is that of
 * `describeGraphStoreContract`.
 */
export function describeChildrenContract(name: string, open: OpenStore): void {
  describe(`GraphStore children contract: ${name}`, () => {
    let store: GraphStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      // nl <- r1 <- f <- c3, c1, c2 (written in that order); c1 <- c1a; r1 <- g.
      await put(
        country('nl'),
        repository('r1', 'nl'),
        unit('f', { parent: { heldBy: 'r1' } }),
        unit('c3', { parent: { childOf: 'f' } }),
        unit('c1', { parent: { childOf: 'f' } }),
        unit('c2', { parent: { childOf: 'f' } }),
        unit('c1a', { parent: { childOf: 'c1' } }),
        unit('g', { parent: { heldBy: 'r1' } }),
      );
    });

    afterEach(async () => {
      await cleanup();
    });

    const put = (...items: ItemWrite[]) => store.write((tx) => tx.putItems(items));
    const children = async (parentIds: string[], page: ChildPage = { limit: 100 }) =>
      Object.fromEntries(
        [...(await store.read((tx) => tx.children(parentIds, page)))].map(([parent, entries]) => [
          parent,
          entries.map((entry) => entry.id),
        ]),
      );

    it('lists the children of each item asked for in id order, with their types, local ids and parent', async () => {
      const listed = await store.read((tx) => tx.children(['f'], { limit: 100 }));
      expect(listed.get('f')).toEqual([
        { id: 'c1', type: 'DocumentaryUnit', localId: 'local-c1', parentId: 'f' },
        { id: 'c2', type: 'DocumentaryUnit', localId: 'local-c2', parentId: 'f' },
        { id: 'c3', type: 'DocumentaryUnit', localId: 'local-c3', parentId: 'f' },
      ]);
      expect(await children(['r1', 'nl', 'c1', 'c2'])).toEqual({
        r1: ['f', 'g'],
        nl: ['r1'],
        c1: ['c1a'],
        c2: [],
      });
    });

    it('gives an empty list for an item not written, and for an edge to one', async () => {
      await put(unit('orphan', { parent: { childOf: 'unwritten' } }));
      expect(await children(['unwritten', 'f'])).toEqual({ unwritten: [], f: ['c1', 'c2', 'c3'] });
    });

    it('pages after a cursor, at most limit children of each item', async () => {
      expect(await children(['f', 'r1'], { limit: 2 })).toEqual({ f: ['c1', 'c2'], r1: ['f', 'g'] });
      expect(await children(['f'], { after: 'c2', limit: 2 })).toEqual({ f: ['c3'] });
      expect(await children(['f'], { after: 'c3', limit: 2 })).toEqual({ f: [] });
      // A cursor need not be a child's id.
      expect(await children(['f'], { after: 'c1z', limit: 1 })).toEqual({ f: ['c2'] });
      // A page is not shifted by children written before its cursor.
      await put(unit('c0', { parent: { childOf: 'f' } }));
      expect(await children(['f'], { after: 'c2', limit: 2 })).toEqual({ f: ['c3'] });
    });

    it('lists an item with child edges to two items under each, once under each', async () => {
      await put(unit('both', { parent: { childOf: 'f' }, edges: { heldBy: ['r1'] } }));
      expect(await children(['f', 'r1'])).toEqual({ f: ['both', 'c1', 'c2', 'c3'], r1: ['both', 'f', 'g'] });
      await put(unit('twice', { parent: { heldBy: 'f' }, edges: { childOf: ['f'] } }));
      expect((await children(['f'])).f).toEqual(['both', 'c1', 'c2', 'c3', 'twice']);
    });
  });
}
