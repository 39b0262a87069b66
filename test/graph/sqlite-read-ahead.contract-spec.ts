import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ItemWrite, SearchQuery } from '../../src/graph/graph-store';
import { SqliteGraphReader } from '../../src/graph/sqlite/sqlite-graph-reader';
import { RankingAccelerator } from '../../src/graph/sqlite/search/accelerated/ranking-accelerator';
import { AcceleratedSearch } from '../../src/graph/sqlite/search/accelerated/accelerated-search';
import { WarmupChannel } from '../../src/graph/sqlite/search/accelerated/warmup-channel';
import { SqliteGraphStore } from '../../src/graph/sqlite/sqlite-graph-store';
import { createTestApp } from '../support/test-app';
import { unit } from './graph-store-fixtures';

/**
 * The SQLite store, once it has answered a search, reads ahead, for each committed version, the
 * postings of the phrases searched before and of the commonest terms (those matching at least
 * 1,000 rows), so that the first searches for them do not read them; a writer on another
 * connection of the process reads them for it before it commits. Postings reads of searches are
 * counted on the accelerator's prototype.
 */

const UNITS = 1_200;

/**
 * Turns of the event loop, in which the stores' channel messages are delivered: a store's first
 * search starts it serving, which a writer of another connection learns by message (in the service,
 * long before an import commits).
 */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Every unit holds "common" (and "unit" and "local", from its name and identifier); one in 400
 * "rare"; "record" and "records" alternate.
 */
function units(count: number, from = 0): ItemWrite[] {
  return Array.from({ length: count }, (_, offset) => {
    const index = from + offset;
    const words = ['common', index % 2 === 0 ? 'record' : 'records', ...(index % 400 === 0 ? ['rare'] : [])];
    return unit(`u${index}`, {
      descriptions: [{ lang: 'eng', name: `Unit ${index}`, text: words.join(' ') }],
    });
  });
}

describe('SQLite read-ahead for searches', () => {
  let folder: string;
  let store: SqliteGraphStore;
  let postingsReads: jest.SpyInstance;

  beforeEach(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'read-ahead-'));
    store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
    await store.write((tx) => tx.putItems(units(UNITS)));
    postingsReads = jest.spyOn(
      RankingAccelerator.prototype as unknown as { readPostings: () => Promise<unknown> },
      'readPostings',
    );
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const search = (text: string) =>
    store.read((tx) => tx.search({ text, offset: 0, limit: 20 } satisfies SearchQuery));
  const uncached = (text: string) =>
    store.write((tx) => tx.search({ text, offset: 0, limit: 20 }), { commit: false });

  it('reads postings for a search when nothing was read ahead, and reads ahead from then on', async () => {
    expect((await search('common')).total).toBe(UNITS);
    expect(postingsReads.mock.calls[0]).toEqual(['"common"']);

    await store.readAheadDone();
    expect(postingsReads.mock.calls.length).toBeGreaterThan(1);
  });

  it('answers a search for a common term from what it read ahead, and reads a rare one', async () => {
    await store.readAheadForSearch();
    const readAhead = postingsReads.mock.calls.length;
    expect(readAhead).toBeGreaterThan(0);

    expect(await search('common')).toEqual(await uncached('common'));
    expect(postingsReads).toHaveBeenCalledTimes(readAhead);
    expect((await search('rare')).total).toBe(UNITS / 400);
    expect(postingsReads).toHaveBeenCalledTimes(readAhead + 1);
  });

  it('reads ahead again for the version a commit makes', async () => {
    await store.readAheadForSearch();
    await store.write((tx) => tx.putItems(units(10, UNITS)));
    // The commit started a read-ahead for its version: this waits for it.
    await store.readAheadForSearch();
    const reads = postingsReads.mock.calls.length;

    expect((await search('common')).total).toBe(UNITS + 10);
    expect(postingsReads).toHaveBeenCalledTimes(reads);
  });

  it('has read ahead, once readAheadDone resolves, for a version another connection committed', async () => {
    await store.readAheadForSearch();
    // As the import worker writes: a store of its own on the same file.
    const worker = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
    try {
      await worker.write((tx) => tx.putItems(units(10, UNITS)));
    } finally {
      await worker.close();
    }
    const before = postingsReads.mock.calls.length;
    await store.readAheadDone();
    const reads = postingsReads.mock.calls.length;
    expect(reads).toBeGreaterThan(before);

    expect((await search('common')).total).toBe(UNITS + 10);
    expect(postingsReads).toHaveBeenCalledTimes(reads);
  });

  it('reads nothing ahead for readAheadDone where it does not read ahead', async () => {
    await store.readAheadDone();
    expect(postingsReads).not.toHaveBeenCalled();
  });

  it('waits for a write running here to end before it reads ahead', async () => {
    let endWrite!: () => void;
    let started!: () => void;
    const writeStarted = new Promise<void>((resolve) => (started = resolve));
    const writing = store.write(
      () => {
        started();
        return new Promise<void>((resolve) => (endWrite = resolve));
      },
      { commit: false },
    );
    // The write begins a few turns of the event loop later (its queue, its lock): read ahead once it runs.
    await writeStarted;
    await store.readAheadForSearch();
    expect(postingsReads).not.toHaveBeenCalled();

    endWrite();
    await writing;
    await store.readAheadForSearch();
    const reads = postingsReads.mock.calls.length;
    expect(reads).toBeGreaterThan(0);
    expect((await search('common')).total).toBe(UNITS);
    expect(postingsReads).toHaveBeenCalledTimes(reads);
  });

  it('reads nothing ahead until it has answered a search, as a store that only imports never does', async () => {
    await store.read((tx) => tx.getItems(['u1']));
    await store.write((tx) => tx.putItems(units(10, UNITS)));
    await store.readAheadDone();
    expect(postingsReads).not.toHaveBeenCalled();

    await search('unit');
    await store.readAheadDone();
    expect(postingsReads.mock.calls.length).toBeGreaterThan(1);
  });

  it('reads ahead in the app once its portal has answered a search', async () => {
    const app = await createTestApp();
    try {
      const appStore = app.store as SqliteGraphStore;
      await app.store.write((tx) => tx.putItems(units(UNITS)));
      await app.store.read((tx) => tx.search({ text: 'unit', offset: 0, limit: 20 }));
      await app.store.write((tx) => tx.putItems(units(10, UNITS)));
      await appStore.readAheadDone();
      const reads = postingsReads.mock.calls.length;
      expect(reads).toBeGreaterThan(1);

      await app.store.read((tx) => tx.search({ text: 'common', offset: 0, limit: 20 }));
      expect(postingsReads).toHaveBeenCalledTimes(reads);
    } finally {
      await app.close();
    }
  });

  it('reads again, after a commit, the phrases searches read before it, rare ones too', async () => {
    await store.readAheadForSearch();
    await search('rare');
    await store.write((tx) => tx.putItems(units(400, UNITS)));
    await store.readAheadForSearch();
    const reads = postingsReads.mock.calls.length;

    expect((await search('rare')).total).toBe(UNITS / 400 + 1);
    expect(postingsReads).toHaveBeenCalledTimes(reads);
  });

  it('keeps what it read for searches through a commit of records alone, and reads records anew', async () => {
    await store.readAheadForSearch();
    await search('common');
    const records = () => store.read((tx) => tx.findRecords({ type: 'TestNote' }));
    expect((await records()).total).toBe(0);
    const reads = postingsReads.mock.calls.length;

    await store.write((tx) => tx.putRecords([{ id: 'n1', type: 'TestNote', props: { text: 'kept' } }]));
    await store.readAheadDone();
    expect((await records()).total).toBe(1);
    expect(await search('common')).toEqual(await uncached('common'));
    expect(postingsReads).toHaveBeenCalledTimes(reads);

    // A commit of items has them read again for its version, before it commits: searches read none.
    await store.write((tx) => tx.putItems(units(1, UNITS)));
    await store.readAheadDone();
    expect((await search('common')).total).toBe(UNITS + 1);
    expect(postingsReads).toHaveBeenCalledTimes(reads);
  });

  describe('warmed by a writer of another connection, before it commits', () => {
    let writer: SqliteGraphStore;
    let warmings: jest.SpyInstance;
    beforeEach(async () => {
      // As the import worker writes: a store of its own on the same file.
      writer = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
      warmings = jest.spyOn(WarmupChannel.prototype, 'warmOthers');
    });
    afterEach(async () => {
      warmings.mockRestore();
      await writer.close();
    });

    const writeUnits = () => writer.write((tx) => tx.putItems(units(400, UNITS)));

    it('finds the phrases searched before read at the new version, with the hits a search reads', async () => {
      await store.readAheadForSearch();
      // Rarer than what is read ahead: read for the searches.
      await search('rare');
      await search('record');
      await settle();
      await writeUnits();
      const reads = postingsReads.mock.calls.length;

      await store.readAheadDone();
      for (const text of ['rare', 'common', 'record']) {
        expect(await search(text)).toEqual(await uncached(text));
      }
      expect((await search('rare')).total).toBe(UNITS / 400 + 1);
      expect(postingsReads).toHaveBeenCalledTimes(reads);
    });

    it('leaves a store that has answered no searches to read for itself', async () => {
      await writeUnits();
      expect((await search('rare')).total).toBe(UNITS / 400 + 1);
      expect(postingsReads).toHaveBeenCalled();
    });

    it('commits without waiting for a serving store that has closed', async () => {
      await store.readAheadForSearch();
      await settle();
      await store.close();
      const started = Date.now();
      await writeUnits();
      expect(Date.now() - started).toBeLessThan(4_000);
      const check = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
      try {
        expect((await check.read((tx) => tx.search({ text: 'rare', offset: 0, limit: 20 }))).total).toBe(
          UNITS / 400 + 1,
        );
      } finally {
        await check.close();
      }
    });

    it('reads nothing for a write of records alone, which leaves what searches keep valid', async () => {
      await store.readAheadForSearch();
      await settle();
      await writer.write((tx) => tx.putRecords([{ id: 'n1', type: 'TestNote', props: {} }]));
      expect(warmings).not.toHaveBeenCalled();
      await writeUnits();
      expect(warmings).toHaveBeenCalledTimes(1);
    });
  });

  it('reads the commonest terms first, as searches ask for them, within its bounds', async () => {
    // Each on a store of its own, whose cache holds no phrase searched before.
    const readAhead = async (maxRows: number, minRows: number) => {
      const fresh = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
      try {
        return await fresh.read((tx) => (tx as SqliteGraphReader).readAhead(maxRows, minRows, () => false));
      } finally {
        await fresh.close();
      }
    };

    // "record" starts another term too: a search asks for it as a prefix.
    expect(await readAhead(10_000, 500)).toEqual(['"common"', '"local"', '"unit"', '"record"*', '"records"']);
    expect(await readAhead(UNITS + 600, 500)).toEqual(['"common"', '"record"*']);
    expect(await readAhead(10_000, UNITS + 1)).toEqual([]);
    expect(await readAhead(10_000, 1)).toContain('"rare"');
  });

  it('reads the phrases searched before the commonest terms', async () => {
    // The search alone, without the store's own read-ahead that a first search starts.
    jest.spyOn(AcceleratedSearch.prototype, 'searched').mockImplementation(() => undefined);
    await search('rare');
    const read = await store.read((tx) =>
      (tx as SqliteGraphReader).readAhead(UNITS + UNITS / 400, 500, () => false),
    );
    expect(read).toEqual(['"rare"', '"common"']);
  });
});
