import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ItemWrite, SearchQuery } from '../../src/graph/graph-store';
import { RankingAccelerator, TOP_HITS } from '../../src/graph/sqlite/search/accelerated/ranking-accelerator';
import { SqliteGraphStore } from '../../src/graph/sqlite/sqlite-graph-store';
import { joinPath } from '../../src/items/identifiers';
import { repositoryWrite, unitWrite } from '../support/portal-fixtures';

/**
 * The accelerated search ranking (`SEARCH_ACCELERATED`, `RankingAccelerator`) is an optimisation
 * only: on the same store, every search answers as the plain path does (FTS5's bm25 ranking in
 * SQL, ties by id), pages past the accelerator's top hits, scopes, type filters and prefixes
 * included.
 */

const WORDS = ['records', 'letters', 'camp', 'ghetto', 'council', 'police', 'amsterdam', 'warsaw', 'lodz'];

/** A small archive: two repositories, each with fonds of series of files; words drawn in a fixed pattern. */
function archive(): ItemWrite[] {
  const writes: ItemWrite[] = [];
  let n = 0;
  const text = (count: number) =>
    Array.from({ length: count }, (_, index) => WORDS[(n * 7 + index * 3 + (n % 5)) % WORDS.length]).join(
      ' ',
    );
  for (const repository of ['archive1', 'archive2']) {
    writes.push(repositoryWrite('nl', repository, { name: `Archive ${repository} records` }));
    for (let fonds = 0; fonds < 3; fonds++) {
      for (let series = 0; series < 4; series++) {
        for (let file = 0; file <= 12; file++) {
          n++;
          const unitPath = [
            'nl',
            repository,
            `f${fonds}`,
            ...(series > 0 ? [`s${series}`] : []),
            ...(file > 0 ? [`u${file}`] : []),
          ];
          if (series === 0 && file > 0) continue;
          writes.push(
            unitWrite(unitPath, {
              descriptions: [
                { languageCode: 'eng', name: `${text(2)} ${n}`, scopeAndContent: text(3 + (n % 9)) },
              ],
            }),
          );
        }
      }
    }
  }
  return writes;
}

function queries(): SearchQuery[] {
  const fonds = joinPath(['nl', 'archive1', 'f0']);
  const repository = joinPath(['nl', 'archive1']);
  const texts = [
    'records',
    'camp ghetto',
    'warsaw police',
    'lod',
    'council',
    'amsterdam records camp',
    'nothingatall',
  ];
  const scopes: SearchQuery['scope'][] = [
    undefined,
    { id: repository, depth: 'children' },
    { id: repository, depth: 'descendants' },
    { id: fonds, depth: 'children' },
    { id: fonds, depth: 'descendants' },
  ];
  const found: SearchQuery[] = [];
  for (const text of [...texts, undefined]) {
    for (const scope of scopes) {
      for (const types of [undefined, ['DocumentaryUnit'], ['Repository']] as SearchQuery['types'][]) {
        for (const [offset, limit] of [
          [0, 20],
          [20, 20],
          [90, 20],
          [100, 7],
        ]) {
          found.push({ text, scope, types, offset, limit });
        }
      }
    }
  }
  return found;
}

describe('SQLite search: the accelerated ranking answers as the plain SQL ranking does', () => {
  let folder: string;
  let accelerated: SqliteGraphStore;
  let plain: SqliteGraphStore;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'ranking-'));
    const file = path.join(folder, 'archive.db');
    accelerated = await SqliteGraphStore.open(file, { acceleratedSearch: true });
    plain = await SqliteGraphStore.open(file, { acceleratedSearch: false });
    await accelerated.write((tx) => tx.putItems(archive()));
  });

  afterAll(async () => {
    await accelerated.close();
    await plain.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('gives the same totals and hits, in the same order, for every query', async () => {
    const ranked = jest.spyOn(RankingAccelerator.prototype, 'rankedText');
    let withHits = 0;
    let pastTopHits = 0;
    try {
      for (const query of queries()) {
        const expected = await plain.read((tx) => tx.search(query));
        const actual = await accelerated.read((tx) => tx.search(query));
        expect({ query, ...actual }).toEqual({ query, ...expected });
        if (expected.hits.length > 0) withHits++;
        if (expected.hits.length > 0 && query.offset + query.limit > TOP_HITS) pastTopHits++;
      }
      // The accelerator ranked the text searches, and the queries found something, past its top
      // hits too (where pages come from SQL again).
      expect(ranked).toHaveBeenCalled();
      expect(withHits).toBeGreaterThan(50);
      expect(pastTopHits).toBeGreaterThan(0);
    } finally {
      ranked.mockRestore();
    }
  });

  it('gives the same hits as a write transaction, which never uses the accelerator', async () => {
    const query: SearchQuery = { text: 'records camp', offset: 0, limit: 50 };
    const inWrite = await accelerated.write((tx) => tx.search(query), { commit: false });
    expect(await accelerated.read((tx) => tx.search(query))).toEqual(inWrite);
    expect(await plain.read((tx) => tx.search(query))).toEqual(inWrite);
  });
});
