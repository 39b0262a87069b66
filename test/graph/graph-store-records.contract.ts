import { GraphStore, ItemWrite, RecordNode, RecordQuery } from '../../src/graph/graph-store';
import { unit, repository, textQuery, ids, deferred } from './graph-store-fixtures';

/**
 * The `GraphStore` contract's records and transactions, inside `describeGraphStoreContract`
 * (`current` gives the store it opened for the test).
 */
export function describeRecordsAndTransactionsContract(current: () => GraphStore): void {
  let store: GraphStore;
  beforeEach(() => {
    store = current();
  });

  const put = (...items: ItemWrite[]) => store.write((tx) => tx.putItems(items));

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
      await store.write((tx) => tx.putRecords([{ id: 'log1', type: 'ImportLog', props: { user: 'carol' } }]));
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
      expect([...(await store.read((tx) => tx.getHashes(['u1', 'u2']))).keys()].sort()).toEqual(['u1', 'u2']);
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
