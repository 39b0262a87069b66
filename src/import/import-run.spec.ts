import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphStore } from '../graph/graph-store';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store';
import { Bundle } from '../items/bundle';
import { itemHash } from '../items/change-detection';
import { FormatReader, ImportContext, ImportSource, ReadEvent } from './formats/format-reader';
import { BATCH_SIZE, ImportRun, RunOptions } from './import-run';
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

  function replay(eventsBySource: ReadEvent[][]): { reader: FormatReader; sources: ImportSource[] } {
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

  async function runImport(eventsBySource: ReadEvent[][], options: Partial<RunOptions> = {}) {
    const { reader, sources } = replay(eventsBySource);
    const ledger = RunLedger.open(path.join(folder, `ledger-${ledgers.length}`));
    ledgers.push(ledger);
    const defaults: RunOptions = {
      tolerant: false,
      allowUpdate: true,
      useSourceId: false,
      descriptionUpdate: 'merge',
    };
    return store.write(async (tx) => {
      const run = new ImportRun(tx, { ...defaults, ...options }, ledger);
      const context = { store: tx, user: 'u', params: {} } as unknown as ImportContext;
      await run.read(reader, sources, context);
      const { log, touched } = run.results(null, null);
      return { outcome: run.outcome(), document: log, touched };
    });
  }

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
