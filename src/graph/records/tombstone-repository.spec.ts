import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Tombstone } from '../../items/tombstones';
import { GraphStore } from '../graph-store';
import { SqliteGraphStore } from '../sqlite/sqlite-graph-store';
import { TOMBSTONE_RECORD_TYPE } from './tombstone-record';
import { tombstoneRepository } from './tombstone-repository';

describe('tombstoneRepository', () => {
  let folder: string;
  let store: GraphStore;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'tombstones-'));
    store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
  });
  afterEach(async () => {
    await store.close();
    await rm(folder, { recursive: true, force: true });
  });

  const gone = (itemId: string, removed: string, place: Partial<Tombstone> = {}): Tombstone => ({
    itemId,
    removed,
    ...place,
  });

  it('reads a tombstone back by its item, and none for an item that has none', async () => {
    const moved = gone('a', '2026-01-02', { movedTo: 'b', event: 'log1' });
    await store.write((tx) => tombstoneRepository.put(tx, [moved]));

    await store.read(async (tx) => {
      expect(await tombstoneRepository.get(tx, 'a')).toEqual(moved);
      expect(await tombstoneRepository.get(tx, 'b')).toBeUndefined();
    });
  });

  it('writes in the caller’s transaction: a rolled-back write leaves none', async () => {
    await store.write((tx) => tombstoneRepository.put(tx, [gone('a', '2026-01-02')]), { commit: false });

    expect(await store.read((tx) => tombstoneRepository.get(tx, 'a'))).toBeUndefined();
  });

  it('finds the earliest removal', async () => {
    expect(await store.read((tx) => tombstoneRepository.earliest(tx))).toBeUndefined();
    await store.write((tx) =>
      tombstoneRepository.put(tx, [
        gone('a', '2026-01-03'),
        gone('b', '2026-01-01'),
        gone('c', '2026-01-02'),
      ]),
    );

    expect(await store.read((tx) => tombstoneRepository.earliest(tx))).toEqual(gone('b', '2026-01-01'));
  });

  it('lists pages by place and time, with a cursor only after a full page', async () => {
    await store.write(async (tx) => {
      await tombstoneRepository.put(tx, [
        gone('a', '2026-01-01', { country: 'nl' }),
        gone('b', '2026-01-02', { country: 'nl' }),
        gone('c', '2026-01-03', { country: 'de' }),
        gone('d', '2026-01-04', { country: 'nl' }),
      ]);
      // A record of the type that holds no tombstone still moves the cursor on.
      await tx.putRecords([
        { id: 'tombstone:bb', type: TOMBSTONE_RECORD_TYPE, props: { removed: '2026-01-02', country: 'nl' } },
      ]);
    });
    const list = (after?: string) =>
      store.read((tx) =>
        tombstoneRepository.list(tx, {
          ...(after === undefined ? {} : { after }),
          place: { country: 'nl' },
          removed: { from: '2026-01-02' },
          limit: 2,
        }),
      );

    const first = await list();
    expect(first.tombstones).toEqual([
      { recordId: 'tombstone:b', tombstone: gone('b', '2026-01-02', { country: 'nl' }) },
    ]);
    expect(first.next).toBe('tombstone:bb');
    const second = await list(first.next);
    expect(second.tombstones.map(({ recordId }) => recordId)).toEqual(['tombstone:d']);
    expect(second.next).toBeUndefined();
  });
});
