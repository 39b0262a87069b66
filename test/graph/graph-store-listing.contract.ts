import { GraphStore, ItemListQuery, ItemWrite, RecordNode } from '../../src/graph/graph-store';
import { describeGraphStoreContract } from './graph-store.contract';
import { country, repository, unit } from './graph-store-fixtures';

type OpenStore = Parameters<typeof describeGraphStoreContract>[1];

/**
 * The port's contract for what a harvest reads (OAI-PMH): items of a type in id order after a
 * cursor, below a scope, with an edge, within update times; and records after a cursor. `open` is
 * that of `describeGraphStoreContract`.
 */
export function describeListingContract(name: string, open: OpenStore): void {
  describe(`GraphStore listing contract: ${name}`, () => {
    let store: GraphStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      // nl <- r1 <- a <- a1, a2; nl <- r1 <- b; de <- r2 <- c; and a unit held by no one.
      await put(
        country('nl'),
        country('de'),
        repository('r1', 'nl'),
        repository('r2', 'de'),
        unit('a', { parent: { heldBy: 'r1' } }),
        unit('a2', { parent: { childOf: 'a' } }),
        unit('a1', { parent: { childOf: 'a' } }),
        unit('b', { parent: { heldBy: 'r1' } }),
        unit('c', { parent: { heldBy: 'r2' } }),
        unit('loose'),
      );
    });

    afterEach(async () => {
      await cleanup();
    });

    const put = (...items: ItemWrite[]) => store.write((tx) => tx.putItems(items));
    const list = async (query: Partial<ItemListQuery>) =>
      (await store.read((tx) => tx.listItems({ type: 'DocumentaryUnit', limit: 100, ...query }))).map(
        (item) => item.id,
      );

    it('lists the items of a type in id order, each with its update time', async () => {
      const listed = await store.read((tx) => tx.listItems({ type: 'DocumentaryUnit', limit: 100 }));
      expect(listed.map((item) => item.id)).toEqual(['a', 'a1', 'a2', 'b', 'c', 'loose']);
      const stored = await store.read((tx) => tx.getItems(['a']));
      expect(listed[0].updated).toBe(stored.get('a')!.updated);
      expect(await list({ type: 'Repository' })).toEqual(['r1', 'r2']);
      expect(await list({ type: 'HistoricalAgent' })).toEqual([]);
    });

    it('pages after a cursor, and a page is not shifted by items written before the cursor', async () => {
      expect(await list({ limit: 2 })).toEqual(['a', 'a1']);
      expect(await list({ after: 'a1', limit: 2 })).toEqual(['a2', 'b']);
      await put(unit('a0', { parent: { heldBy: 'r1' } }));
      expect(await list({ after: 'b', limit: 2 })).toEqual(['c', 'loose']);
      expect(await list({ after: 'loose' })).toEqual([]);
      // A cursor need not be an id of the type, nor one that exists.
      expect(await list({ after: 'bz' })).toEqual(['c', 'loose']);
    });

    it('keeps the items below a scope, at any depth', async () => {
      expect(await list({ below: 'nl' })).toEqual(['a', 'a1', 'a2', 'b']);
      expect(await list({ below: 'r1', after: 'a2' })).toEqual(['b']);
      expect(await list({ below: 'a' })).toEqual(['a1', 'a2']);
      expect(await list({ below: 'r2' })).toEqual(['c']);
      expect(await list({ below: 'missing' })).toEqual([]);
      expect(await list({ type: 'Repository', below: 'de' })).toEqual(['r2']);
    });

    it('keeps the items with an edge of a type to an item: the top-level units', async () => {
      expect(await list({ withEdge: 'heldBy' })).toEqual(['a', 'b', 'c']);
      expect(await list({ withEdge: 'heldBy', below: 'nl' })).toEqual(['a', 'b']);
      // An edge to an item never written does not count.
      await put(unit('d', { parent: { heldBy: 'unwritten' } }));
      expect(await list({ withEdge: 'heldBy' })).toEqual(['a', 'b', 'c']);
    });

    it('keeps the items last updated within the times given, both ends included', async () => {
      const before = (await store.read((tx) => tx.getItems(['b']))).get('b')!.updated;
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Changed (another hash) and new: both take the time of this write; unchanged keeps its own.
      await put({ ...unit('b', { parent: { heldBy: 'r1' } }), hash: 'changed' }, unit('e'));
      await put(unit('a', { parent: { heldBy: 'r1' } }));
      const after = (await store.read((tx) => tx.getItems(['b']))).get('b')!.updated;
      expect(after > before).toBe(true);
      expect(await list({ updated: { from: after } })).toEqual(['b', 'e']);
      expect(await list({ updated: { until: before } })).toEqual(['a', 'a1', 'a2', 'c', 'loose']);
      expect(await list({ updated: { from: after, until: after } })).toEqual(['b', 'e']);
      expect(await list({ updated: { from: after, until: after }, below: 'r1' })).toEqual(['b']);
      expect(await list({ updated: { from: '9999-01-01T00:00:00.000Z' } })).toEqual([]);
    });

    it('finds records after a cursor, within a range, in id order', async () => {
      const tombstone = (id: string, removed: string, repository: string): RecordNode => ({
        id: `tombstone:${id}`,
        type: 'Tombstone',
        props: { itemId: id, removed, repository },
      });
      await store.write((tx) =>
        tx.putRecords([
          tombstone('x1', '2024-01-01T00:00:00.000Z', 'r1'),
          tombstone('x2', '2024-02-01T00:00:00.000Z', 'r2'),
          tombstone('x3', '2024-03-01T00:00:00.000Z', 'r1'),
          tombstone('x4', '2024-04-01T00:00:00.000Z', 'r1'),
        ]),
      );
      const find = async (after: string | undefined, limit: number, extra: object = {}) =>
        (await store.read((tx) => tx.findRecords({ type: 'Tombstone', after, limit, ...extra }))).records.map(
          (record) => record.props.itemId,
        );
      expect(await find(undefined, 2)).toEqual(['x1', 'x2']);
      expect(await find('tombstone:x2', 2)).toEqual(['x3', 'x4']);
      expect(await find('tombstone:x1', 10, { equals: { repository: 'r1' } })).toEqual(['x3', 'x4']);
      const range = { property: 'removed', from: '2024-02-01T00:00:00.000Z', to: '2024-03-31T00:00:00.000Z' };
      expect(await find('tombstone:x2', 10, { range })).toEqual(['x3']);
    });
  });
}
