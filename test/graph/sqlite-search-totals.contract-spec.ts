import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphReader, SearchQuery } from '../../src/graph/graph-store';
import { SqliteGraphStore } from '../../src/graph/sqlite/sqlite-graph-store';
import { StatementCache } from '../../src/graph/sqlite/statement-cache';
import { unit } from './graph-store-fixtures';

/**
 * A search the SQLite store pages in SQL (browsing a scope, or any search in a write) counts its
 * hits with a statement of its own, unless its first page is not full: then the page holds every
 * hit. Which statements run is what these tests look at; the totals themselves are the store
 * contract's.
 */
describe('SQLite search totals', () => {
  let folder: string;
  let store: SqliteGraphStore;
  let counts: string[];

  beforeEach(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'search-totals-'));
    store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
    const children = (parent: string, count: number) =>
      Array.from({ length: count }, (_, index) =>
        unit(`${parent}-c${index}`, {
          parent: { childOf: parent },
          descriptions: [{ lang: 'eng', name: 'Letters' }],
        }),
      );
    await store.write((tx) =>
      tx.putItems([unit('few'), unit('many'), ...children('few', 3), ...children('many', 25)]),
    );
    counts = [];
    const get = StatementCache.prototype.get;
    jest.spyOn(StatementCache.prototype, 'get').mockImplementation(function (
      this: StatementCache,
      sql,
      mode,
    ) {
      if (/^\s*SELECT count\(\*\)/.test(sql)) counts.push(sql);
      return get.call(this, sql, mode);
    });
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const children = (id: string, offset = 0, text?: string): SearchQuery => ({
    text,
    scope: { id, depth: 'children' },
    offset,
    limit: 10,
  });
  const inRead = (query: SearchQuery) => store.read((tx) => tx.search(query));
  const inWrite = (query: SearchQuery) =>
    store.write((tx: GraphReader) => tx.search(query), { commit: false });

  it('reads no count when the first page holds every hit, in a read or a write', async () => {
    for (const search of [inRead, inWrite]) {
      const result = await search(children('few'));
      expect([result.total, result.hits.length]).toEqual([3, 3]);
    }
    const texts = await inWrite(children('few', 0, 'letters'));
    expect([texts.total, texts.hits.length]).toEqual([3, 3]);
    expect(counts).toEqual([]);
  });

  it('counts when the first page is full or another page is asked for', async () => {
    expect((await inRead(children('many'))).total).toBe(25);
    expect(counts).toHaveLength(1);
    expect((await inRead(children('few', 10))).total).toBe(3);
    expect(counts).toHaveLength(2);
  });
});
