import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CREATE_LIST_INDEX, LEDGER_SCHEMA, RunLedger, walkPageSql } from './run-ledger';

describe('RunLedger', () => {
  let folder: string;
  let ledger: RunLedger;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'run-ledger-'));
    ledger = RunLedger.open(path.join(folder, 'ledger'));
  });
  afterEach(async () => {
    ledger.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('lists ids in the order they were appended, one moved last when appended again', () => {
    ledger.appendNew({ id: 'a', status: 'unchanged', tagIndex: 0 });
    ledger.appendNew({ id: 'b', status: 'created', tagIndex: 1 });
    ledger.append({ id: 'a', status: 'updated', tagIndex: 2 });
    expect([...ledger.walk(['created', 'updated', 'unchanged'])]).toEqual([
      { id: 'b', status: 'created', tagIndex: 1 },
      { id: 'a', status: 'updated', tagIndex: 2 },
    ]);
    expect([...ledger.walk(['unchanged'])]).toEqual([]);
  });

  it('refuses to append as new an id it holds', () => {
    ledger.appendNew({ id: 'a', status: 'created', tagIndex: 0 });
    expect(() => ledger.appendNew({ id: 'a', status: 'updated', tagIndex: 0 })).toThrow(/UNIQUE/);
  });

  it('answers for single ids and counts by status', () => {
    ledger.appendNew({ id: 'a', status: 'created', tagIndex: 0 });
    ledger.appendNew({ id: 'b', status: 'unchanged', tagIndex: 0 });
    expect(ledger.has('a', ['created'])).toBe(true);
    expect(ledger.has('a', ['unchanged'])).toBe(false);
    expect(ledger.has('c', ['created', 'unchanged'])).toBe(false);
    expect(ledger.count(['created', 'unchanged'])).toBe(2);
    expect(ledger.count(['updated'])).toBe(0);
    expect([...ledger.entries(['b', 'c', 'a']).keys()].sort()).toEqual(['a', 'b']);
  });

  it('walks more ids than one page holds, each once and in order', () => {
    const ids = Array.from({ length: 4321 }, (_, index) => `id${index}`);
    ids.forEach((id, index) =>
      ledger.appendNew({ id, status: index % 3 === 0 ? 'unchanged' : 'created', tagIndex: 0 }),
    );
    expect([...ledger.walk(['created', 'unchanged'])].map(({ id }) => id)).toEqual(ids);
    expect([...ledger.walk(['unchanged'])].map(({ id }) => id)).toEqual(ids.filter((_, i) => i % 3 === 0));
  });

  it('lists ids by status and tag, each list where its first id comes, and walks one in order', () => {
    const statuses = ['created', 'unchanged', 'created', 'updated'] as const;
    const ids = Array.from({ length: 4500 }, (_, index) => `id${index}`);
    ids.forEach((id, index) =>
      ledger.appendNew({ id, status: statuses[index % 4], tagIndex: index < 3 ? 1 : 0 }),
    );
    ledger.append({ id: 'id1', status: 'updated', tagIndex: 1 });

    expect(ledger.tagLists()).toEqual([
      { status: 'created', tagIndex: 1, count: 2 },
      { status: 'updated', tagIndex: 0, count: 1125 },
      { status: 'created', tagIndex: 0, count: 2248 },
      { status: 'unchanged', tagIndex: 0, count: 1124 },
      { status: 'updated', tagIndex: 1, count: 1 },
    ]);
    const created = ids.filter((_, index) => index >= 3 && index % 4 !== 1 && index % 4 !== 3);
    expect([...ledger.walkTagList({ status: 'created', tagIndex: 0, count: created.length })]).toEqual(
      created,
    );
    expect([...ledger.walkTagList({ status: 'updated', tagIndex: 1, count: 1 })]).toEqual(['id1']);
  });

  it('walks a page along the list order, not the list index, once the lists are indexed', () => {
    const db = new Database(':memory:');
    db.exec(LEDGER_SCHEMA);
    db.exec(CREATE_LIST_INDEX);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${walkPageSql(['created', 'updated'])}`)
      .all(0)
      .map((row) => (row as { detail: string }).detail);
    db.close();
    expect(plan).toEqual(['SEARCH result USING INTEGER PRIMARY KEY (rowid>?)']);
  });
});
