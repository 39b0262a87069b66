import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphReader, ItemWrite, SearchQuery } from '../../src/graph/graph-store';
import { SqliteGraphStore } from '../../src/graph/sqlite/sqlite-graph-store';
import { unit } from './graph-store-fixtures';

/**
 * Read transactions of the SQLite store keep results per store version (src/graph/read-cache.ts) and rank
 * a text search once for its first pages; a write transaction's reads are never cached. So every
 * read here is checked against the same read inside a rolled-back write: the uncached answer.
 */

const WORDS = ['records', 'recordings', 'camp', 'council', 'file', 'files', 'zebra'];

/**
 * Deterministic text with many equal scores (same words, same lengths) and >100 matches. `count`
 * less 3 must be prime.
 */
function units(count: number): ItemWrite[] {
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) % WORDS.length;
  return Array.from({ length: count }, (_, index) => {
    // Ids out of write order below the three roots, so that ties ordered by id differ from rid order.
    const number = index < 3 ? index : 3 + (((index - 3) * 7919) % (count - 3));
    const id = `u${String(number).padStart(3, '0')}`;
    const name = `${WORDS[next()]} ${WORDS[next() % 3]}`;
    const text = Array.from({ length: 1 + (index % 4) }, () => WORDS[next()]).join(' ');
    const parent = index < 3 ? undefined : { childOf: `u00${index % 3}` };
    return unit(id, { parent, descriptions: [{ lang: 'eng', name, text }] });
  });
}

describe('SQLite read cache', () => {
  let folder: string;
  let store: SqliteGraphStore;

  beforeEach(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'read-cache-'));
    store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
    await store.write((tx) => tx.putItems(units(260)));
  });

  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const uncached = <T>(work: (tx: GraphReader) => Promise<T>) => store.write(work, { commit: false });

  async function expectSameAsUncached(query: SearchQuery): Promise<void> {
    const expected = await uncached((tx) => tx.search(query));
    // The first read fills the cache, the second is answered from it.
    expect(await store.read((tx) => tx.search(query))).toEqual(expected);
    expect(await store.read((tx) => tx.search(query))).toEqual(expected);
  }

  it('answers every page, cached or not, as an uncached search does', async () => {
    const texts = [
      'records',
      'recor',
      'RECORDS camp',
      'record',
      'file',
      'files',
      'zebra council',
      'council zebra files',
      'records records',
      'c',
      'nothing',
    ];
    const scopes: SearchQuery['scope'][] = [
      undefined,
      { id: 'u000', depth: 'descendants' },
      { id: 'u001', depth: 'children' },
    ];
    const windows = [
      ...Array.from({ length: 8 }, (_, page) => ({ offset: page * 20, limit: 20 })),
      { offset: 13, limit: 7 },
      { offset: 0, limit: 100 },
      { offset: 95, limit: 10 },
    ];
    for (const text of texts) {
      for (const scope of scopes) {
        for (const window of windows) await expectSameAsUncached({ text, scope, ...window });
        for (const types of [['DocumentaryUnit'], ['Repository']] as const) {
          await expectSameAsUncached({ text, scope, types, offset: 0, limit: 20 });
        }
      }
    }
    const { total } = await store.read((tx) => tx.search({ text: 'records', offset: 0, limit: 1 }));
    expect(total).toBeGreaterThan(100);
  });

  it('sees a commit at once: pages, totals and items', async () => {
    const query = { text: 'zebra', offset: 20, limit: 20 };
    const before = await store.read((tx) => tx.search(query));
    const first = await store.read((tx) => tx.search({ ...query, offset: 0 }));
    await store.write((tx) =>
      tx.putItems([
        unit('new', { descriptions: [{ lang: 'eng', name: 'zebra zebra zebra', text: 'zebra' }] }),
      ]),
    );
    const after = await store.read((tx) => tx.search({ ...query, offset: 0 }));
    expect(after.total).toBe(first.total + 1);
    expect(after.hits[0].id).toBe('new');
    expect(await store.read((tx) => tx.search(query))).not.toEqual(before);
    await expectSameAsUncached(query);

    const nameOf = async () =>
      (await store.read((tx) => tx.getItems(['u010']))).get('u010')?.bundle.relations.describes?.[0].data
        .name;
    expect(await nameOf()).not.toBe('renamed');
    await store.write((tx) =>
      tx.putItems([unit('u010', { descriptions: [{ lang: 'eng', name: 'renamed' }] })]),
    );
    expect(await nameOf()).toBe('renamed');
    await store.write((tx) => tx.deleteItems(['u010']));
    expect(await nameOf()).toBeUndefined();
  });

  it('orders tied hits by id as SQLite collates it, beyond ASCII too', async () => {
    // Equal texts, and ids of as many words (letters), score equally. UTF-16 puts U+10400 before
    // U+FF21; UTF-8 puts it after.
    const ids = ['tie-\u{10400}', 'tie-\u{ff21}', 'tie-é', 'tie-Z', 'tie-a'];
    await store.write((tx) =>
      tx.putItems(
        ids.map((id) => unit(id, { descriptions: [{ lang: 'eng', name: 'okapi', text: 'okapi' }] })),
      ),
    );
    const query = { text: 'okapi', offset: 0, limit: 20 };
    await expectSameAsUncached(query);
    expect((await store.read((tx) => tx.search(query))).hits.map((hit) => hit.id)).toEqual([
      'tie-Z',
      'tie-a',
      'tie-é',
      'tie-\u{ff21}',
      'tie-\u{10400}',
    ]);
  });

  it('gives each reader its own copy of a cached item', async () => {
    const read = () => store.read((tx) => tx.getItems(['u005', 'u001', 'ghost']));
    const first = await read();
    expect([...first.keys()]).toEqual(['u005', 'u001']);
    first.get('u005')!.bundle.data.identifier = 'changed';
    first.get('u005')!.edges.childOf!.push('changed');
    const again = await read();
    expect(again).toEqual(await uncached((tx) => tx.getItems(['u005', 'u001', 'ghost'])));
    expect(again.get('u005')!.bundle.data.identifier).toBe('local-u005');
  });

  it('finds ancestors from stored paths, current after every commit', async () => {
    await store.write((tx) =>
      tx.putItems([
        unit('a', {}),
        unit('b', { parent: { childOf: 'a' } }),
        unit('c', { parent: { childOf: 'b' } }),
      ]),
    );
    const chains = () => store.read((tx) => tx.ancestors(['c', 'b', 'a', 'ghost']));
    expect(await chains()).toEqual(
      new Map([
        [
          'c',
          [
            { id: 'b', type: 'DocumentaryUnit' },
            { id: 'a', type: 'DocumentaryUnit' },
          ],
        ],
        ['b', [{ id: 'a', type: 'DocumentaryUnit' }]],
        ['a', []],
        ['ghost', []],
      ]),
    );
    (await chains()).get('c')!.pop();
    expect((await chains()).get('c')).toHaveLength(2);

    await store.write((tx) => tx.putItems([unit('b', { parent: { childOf: 'u001' } })]));
    expect((await chains()).get('c')).toEqual([
      { id: 'b', type: 'DocumentaryUnit' },
      { id: 'u001', type: 'DocumentaryUnit' },
    ]);
    await store.write((tx) => tx.deleteItems(['b']));
    expect((await chains()).get('c')).toEqual([]);
    expect(await chains()).toEqual(await uncached((tx) => tx.ancestors(['c', 'b', 'a', 'ghost'])));
  });

  it('asks for a prefix as its sole term only while no other term starts the same', async () => {
    const record = { text: 'record', offset: 0, limit: 20 };
    await expectSameAsUncached(record);
    // Every unit with "recordings" goes: "record" now starts "records" alone.
    const withRecordings = await store.read((tx) => tx.search({ text: 'recordings', offset: 0, limit: 300 }));
    expect(withRecordings.total).toBeGreaterThan(0);
    await store.write((tx) => tx.deleteItems(withRecordings.hits.map((hit) => hit.id)));
    await expectSameAsUncached(record);
    await expectSameAsUncached({ ...record, text: 'recordi' });
    await store.write((tx) =>
      tx.putItems([unit('late', { descriptions: [{ lang: 'eng', name: 'recordkeeping' }] })]),
    );
    await expectSameAsUncached(record);
    expect((await store.read((tx) => tx.search({ ...record, limit: 300 }))).hits).toContainEqual({
      id: 'late',
      type: 'DocumentaryUnit',
    });
  });

  it("lets other work run while it reads a common phrase's matches from the index", async () => {
    // More matches than one turn of the event loop reads (ROWS_PER_TURN).
    const many = Array.from({ length: 5000 }, (_, index) =>
      unit(`q${index}`, { descriptions: [{ lang: 'eng', name: `quagga ${index % 7}`, text: 'quagga' }] }),
    );
    await store.write((tx) => tx.putItems(many));
    const first = { text: 'quagga', offset: 0, limit: 20 };
    const second = { text: 'quagga 3', offset: 20, limit: 20 };
    let turns = 0;
    let reading = true;
    const turn = () => {
      if (!reading) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);

    // Without turns the reads finish among promise callbacks, before any `setImmediate` runs.
    const answers = await Promise.all([first, second].map((query) => store.read((tx) => tx.search(query))));
    reading = false;

    expect(turns).toBeGreaterThan(0);
    expect(answers[0]).toEqual(await uncached((tx) => tx.search(first)));
    expect(answers[1]).toEqual(await uncached((tx) => tx.search(second)));
    expect(answers[0].total).toBe(5000);
  });
});
