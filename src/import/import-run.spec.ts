import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphStore } from '../graph/graph-store';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store';
import { Bundle } from '../items/bundle';
import { itemHash, writeHash } from '../items/change-detection';
import { FormatReader, ImportContext, ImportEvent, ImportSource, ReadEvent } from './formats/format-reader';
import { BATCH_SIZE, ImportRun, RunOptions } from './import-run';
import { ImportLogDocument } from '../import-logs/import-log.types';
import { RunLedger } from './run-ledger';

/** The run's loop on a real SQLite store, with a reader that replays prepared events. */
describe('ImportRun', () => {
  let folder: string;
  let store: GraphStore;
  /** Each run's ledger, open until the test has read the run's outcome. */
  const ledgers: RunLedger[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'import-run-'));
    store = await SqliteGraphStore.open(path.join(folder, 'test.db'));
    await store.write((tx) =>
      tx.putItems(['p1', 'p2'].map((id) => ({ bundle: repository(id), hash: itemHash(repository(id)) }))),
    );
  });
  afterEach(async () => {
    for (const ledger of ledgers.splice(0)) ledger.close();
    await store.close();
    await rm(folder, { recursive: true, force: true });
  });

  function repository(id: string): Bundle {
    return { id, type: 'Repository', data: { identifier: id }, relations: {} };
  }

  function unit(id: string, title: string, parent = 'p1'): ReadEvent {
    const bundle: Bundle = { id, type: 'DocumentaryUnit', data: { identifier: id, title }, relations: {} };
    return { kind: 'item', tag: 'doc', write: { bundle, edges: { heldBy: [parent] } } };
  }

  function replay(eventsBySource: ImportEvent[][]): { reader: FormatReader; sources: ImportSource[] } {
    const sources = eventsBySource.map((_, index) => ({ tag: `s${index}`, bytes: async function* () {} }));
    const reader: FormatReader = {
      name: 'replay',
      classNames: [],
      scopeTypes: [],
      input: 'raw',
      async *read(source) {
        yield* eventsBySource[Number(source.tag.slice(1))];
      },
    };
    return { reader, sources };
  }

  async function runImport(eventsBySource: ImportEvent[][], options: Partial<RunOptions> = {}) {
    const { reader, sources } = replay(eventsBySource);
    const ledger = RunLedger.open(path.join(folder, `ledger-${ledgers.length}`));
    ledgers.push(ledger);
    const defaults: RunOptions = {
      tolerant: false,
      allowUpdate: true,
      useSourceId: false,
      descriptionUpdate: 'merge',
      maxIdLength: 1024,
    };
    return store.write(async (tx) => {
      const run = new ImportRun(tx, { ...defaults, ...options }, ledger);
      const context = { store: tx, user: 'u', params: {} } as unknown as ImportContext;
      await run.read(reader, sources, context);
      const { log, touched } = run.results(null, null);
      // Walked from the ledger: read as an answer reads them.
      return {
        outcome: run.outcome(),
        document: JSON.parse(JSON.stringify(log)) as ImportLogDocument,
        touched: [...touched],
      };
    });
  }

  /** `event` deferred under `hash`, with a count of the times it is built. */
  function deferred(event: ReadEvent & { kind: 'item' }, hash: string) {
    const counted = {
      builds: 0,
      event: {
        kind: 'deferred',
        tag: event.tag,
        id: event.write.bundle.id,
        hash,
        build: () => {
          counted.builds++;
          return { ...event, hash };
        },
      } satisfies ImportEvent,
    };
    return counted;
  }

  function described(id: string, descriptions: Record<string, string>): ReadEvent & { kind: 'item' } {
    const item = unit(id, 'Described') as ReadEvent & { kind: 'item' };
    item.write.bundle.relations.describes = Object.entries(descriptions).map(([languageCode, name]) => ({
      id: `${id}.${languageCode}`,
      type: 'DocumentaryUnitDescription',
      data: { languageCode, name },
      relations: {},
    }));
    return item;
  }

  const storedHash = async (id: string) => (await store.read((tx) => tx.getHashes([id]))).get(id);

  it('builds a deferred item only when its id is new or stored with another hash', async () => {
    const first = deferred(unit('d', 'D') as ReadEvent & { kind: 'item' }, 'h1');
    expect((await runImport([[first.event]])).document).toMatchObject({ created: 1 });
    expect([first.builds, await storedHash('d')]).toEqual([1, 'h1']);

    const again = deferred(unit('d', 'D') as ReadEvent & { kind: 'item' }, 'h1');
    expect((await runImport([[again.event]])).document).toMatchObject({ unchanged: 1 });
    expect(again.builds).toBe(0);

    // The same item under another hash (another build, say): built, found unchanged, and its
    // stored hash replaced, so that the next time needs no build.
    const rehashed = deferred(unit('d', 'D') as ReadEvent & { kind: 'item' }, 'h2');
    expect((await runImport([[rehashed.event]])).document).toMatchObject({ unchanged: 1, updated: 0 });
    expect([rehashed.builds, await storedHash('d')]).toEqual([1, 'h2']);

    const changed = deferred(unit('d', 'Changed') as ReadEvent & { kind: 'item' }, 'h3');
    expect((await runImport([[changed.event]])).document).toMatchObject({ updated: 1 });
    expect([changed.builds, await storedHash('d')]).toEqual([1, 'h3']);
  });

  it('refuses a deferred item that building refuses, as it refuses invalid items', async () => {
    const refused: ImportEvent = {
      kind: 'deferred',
      tag: 'doc',
      id: 'bad',
      hash: 'h',
      build: () => ({ kind: 'invalid', tag: 'doc', key: 'bad', message: 'bad: title: missing' }),
    };
    const tolerant = await runImport([[unit('fine', 'Fine'), refused]], { tolerant: true });
    expect(tolerant.document).toMatchObject({ created: 1, errors: { bad: 'bad: title: missing' } });
    await expect(runImport([[refused]])).rejects.toMatchObject({ details: { key: 'bad', tag: 'doc' } });
    expect(await storedHash('bad')).toBeUndefined();
  });

  it("stores a reader's hash only with the item as it came, not with a merge", async () => {
    await runImport([[described('m', { eng: 'English' })]]);
    const german = deferred(described('m', { deu: 'Deutsch' }), 'hash-of-deu');
    expect((await runImport([[german.event]])).document).toMatchObject({ updated: 1 });
    const merged = (await store.read((tx) => tx.getItems(['m']))).get('m')!;
    expect(merged.bundle.relations.describes?.map((description) => description.data.name)).toEqual([
      'English',
      'Deutsch',
    ]);
    expect(await storedHash('m')).toBe(writeHash(merged.bundle, { heldBy: ['p1'] }));

    // Read again, the German description is there already: unchanged, and the hash stays the
    // merge's, which the reader's does not vouch for.
    const again = deferred(described('m', { deu: 'Deutsch' }), 'hash-of-deu');
    expect((await runImport([[again.event]])).document).toMatchObject({ unchanged: 1 });
    expect([again.builds, await storedHash('m')]).toEqual([1, writeHash(merged.bundle, { heldBy: ['p1'] })]);
  });

  it('writes more items than one batch holds, and finds them unchanged the next time', async () => {
    const events = Array.from({ length: BATCH_SIZE * 2 + 7 }, (_, index) =>
      unit(`u${index}`, `Unit ${index}`),
    );
    const first = await runImport([events]);
    expect(first.document.created).toBe(events.length);
    const again = await runImport([events]);
    expect(again.document).toMatchObject({ created: 0, updated: 0, unchanged: events.length });
    expect(again.touched).toEqual([]);
  });

  it('sees an id repeated within one batch as already written', async () => {
    const result = await runImport([[unit('a', 'One'), unit('b', 'B'), unit('a', 'Two')]]);
    expect(result.document).toMatchObject({ created: 2, updated: 0 });
    const stored = await store.read((tx) => tx.getItems(['a']));
    expect(stored.get('a')?.bundle.data.title).toBe('Two');
  });

  it('counts a changed edge as an update', async () => {
    await runImport([[unit('moved', 'Same')]]);
    const result = await runImport([[unit('moved', 'Same', 'p2')]]);
    expect(result.document).toMatchObject({ updated: 1, updated_keys: { doc: ['moved'] } });
    const stored = await store.read((tx) => tx.getItems(['moved']));
    expect(stored.get('moved')?.edges.heldBy).toEqual(['p2']);
  });

  it('reports the outcome by id for a finish step', async () => {
    await runImport([[unit('old', 'Old'), unit('same', 'Same')]]);
    const { outcome } = await runImport([
      [unit('old', 'Changed'), unit('same', 'Same')],
      [unit('new', 'New')],
    ]);
    expect([...outcome.created]).toEqual(['new']);
    expect([...outcome.updated]).toEqual(['old']);
    expect([...outcome.unchanged]).toEqual(['same']);
    expect([...outcome.produced].sort()).toEqual(['new', 'old', 'same']);
  });

  it('answers a finish step about single ids as a set would', async () => {
    await runImport([[unit('old', 'Old')]]);
    const { outcome } = await runImport([[unit('old', 'Changed'), unit('new', 'New')]]);
    expect(outcome.created.has('new')).toBe(true);
    expect(outcome.created.has('old')).toBe(false);
    expect(outcome.produced.has('elsewhere')).toBe(false);
    expect([outcome.produced.size, outcome.created.size, outcome.unchanged.size]).toEqual([2, 1, 0]);
    expect([...outcome.updated.entries()]).toEqual([['old', 'old']]);
    const produced: string[] = [];
    outcome.produced.forEach((id) => produced.push(id));
    expect(produced).toEqual(['old', 'new']);
  });

  it('lists an id produced again with changes last, under the tag of its first update', async () => {
    await runImport([[unit('a', 'A'), unit('b', 'B')]]);
    const twice = (title: string) => ({ ...unit('a', title), tag: title });
    const result = await runImport([[unit('a', 'A'), unit('b', 'B')], [twice('first')], [twice('second')]]);
    expect(result.document).toMatchObject({
      updated: 1,
      updated_keys: { first: ['a'] },
      unchanged: 1,
      unchanged_keys: { doc: ['b'] },
    });
    expect([...result.outcome.produced]).toEqual(['b', 'a']);
    expect(result.touched).toEqual(['a']);
  });

  it('keeps invalid items in errors when tolerant, and fails on them otherwise', async () => {
    const invalid: ReadEvent = { kind: 'invalid', tag: 'doc', key: 'bad', message: 'bad: title: missing' };
    const tolerant = await runImport([[unit('fine', 'Fine'), invalid]], { tolerant: true });
    expect(tolerant.document).toMatchObject({ created: 1, errors: { bad: 'bad: title: missing' } });
    await expect(runImport([[invalid]])).rejects.toMatchObject({ details: { key: 'bad', tag: 'doc' } });
  });
});
