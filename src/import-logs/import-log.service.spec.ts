import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphStore } from '../graph/graph-store';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store';
import { PART_IDS } from './import-log-parts';
import { IMPORT_LOG_PART_RECORD_TYPE, IMPORT_LOG_RECORD_TYPE } from './import-log-record';
import { ImportLogService } from './import-log.service';
import { ImportLogDocument, ImportLogRecord } from './import-log.types';
import { Ids, WalkedIds } from './walked-ids';

describe('ImportLogService', () => {
  let folder: string;
  let store: GraphStore;
  let logs: ImportLogService;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'import-logs-'));
    store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
    logs = new ImportLogService(store);
  });
  afterEach(async () => {
    await store.close();
    await rm(folder, { recursive: true, force: true });
  });

  const ids = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, index) => `${prefix}${index}`);

  function logOf(
    created: Record<string, string[]>,
    unchanged: Record<string, string[]> = {},
  ): ImportLogDocument {
    const count = (keys: Record<string, string[]>) => Object.values(keys).flat().length;
    return {
      created: count(created),
      created_keys: created,
      updated: 0,
      updated_keys: {},
      unchanged: count(unchanged),
      unchanged_keys: unchanged,
      errors: { bad: 'bad: title: missing' },
      message: 'a message',
      event: 'log1',
    };
  }

  function recordOf(
    log: ImportLogDocument,
    touched: string[],
    result?: Record<string, unknown>,
  ): ImportLogRecord {
    return {
      id: 'log1',
      endpoint: 'ead',
      parameters: { scope: 'r1', commit: 'true' },
      user: 'u1',
      scope: 'r1',
      tags: Object.keys(log.created_keys),
      log,
      result,
      touched,
      outcome: 'succeeded',
      started: '2024-01-01T00:00:00.000Z',
      finished: '2024-01-01T00:01:00.000Z',
    };
  }

  const save = (record: ImportLogRecord) => store.write((tx) => logs.writeIn(tx, record));
  const raw = (id: string) => store.read((tx) => tx.getRecord(id));

  it('keeps a small log in its record, as it is', async () => {
    const record = recordOf(logOf({ 'a.xml': ['r1-a', 'r1-b'] }), ['r1-a', 'r1-b']);
    await save(record);

    expect((await raw('log1'))?.props).toMatchObject({ touched: ['r1-a', 'r1-b'] });
    expect((await raw('log1'))?.props.parts).toBeUndefined();
    expect(await raw('log1/0')).toBeUndefined();
    expect(await logs.get('log1')).toEqual(record);
  });

  it('keeps the ids of a large log in parts, and reads them back in their lists and order', async () => {
    const created = { 'a.xml': ids('r1-a', PART_IDS), 'b.xml': ids('r1-b', 3) };
    const unchanged = { 'a.xml': ids('r1-c', PART_IDS + 5) };
    const record = recordOf(logOf(created, unchanged), [...created['a.xml'], ...created['b.xml']]);
    await save(record);

    const head = await raw('log1');
    expect(head?.props.touched).toEqual([]);
    expect(JSON.parse(String(head?.props.log))).toMatchObject({ created_keys: { 'a.xml': [], 'b.xml': [] } });
    const parts = await store.read((tx) => tx.findRecords({ type: IMPORT_LOG_PART_RECORD_TYPE }));
    const stored = [record.touched, ...Object.values(created), ...Object.values(unchanged)].flat();
    expect(parts.total).toBe(Math.ceil(stored.length / PART_IDS));
    expect(await logs.get('log1')).toEqual(record);
  });

  describe('lists and pages', () => {
    const tagged = (change: string, byTag: Record<string, string[]>) =>
      Object.entries(byTag).flatMap(([tag, list]) => list.map((id) => ({ id, change, tag })));

    it.each([
      ['in parts', PART_IDS + 5],
      ['in its record', 3],
    ])('lists a log %s by its counts, and pages its items across lists and parts', async (_, size) => {
      const created = { 'a.xml': ids('r1-a', size), 'b.xml': ids('r1-b', 3) };
      const unchanged = { 'a.xml': ids('r1-c', size + 2) };
      const record = recordOf(logOf(created, unchanged), [...created['a.xml'], ...created['b.xml']]);
      await save(record);

      const [listed] = (await logs.find({ offset: 0, limit: 10 })).records;
      expect(listed).toEqual({
        ...record,
        log: {
          created: size + 3,
          updated: 0,
          unchanged: size + 2,
          errors: 1,
          message: 'a message',
          event: 'log1',
        },
        result: undefined,
        touched: undefined,
        touchedCount: size + 3,
        tagCount: 2,
      });
      expect(JSON.stringify(listed)).not.toContain('r1-a0');

      const everything = [...tagged('created', created), ...tagged('unchanged', unchanged)];
      const paged = [];
      for (let offset = 0; offset < everything.length; offset += 7) {
        const page = await logs.items('log1', {
          changes: ['created', 'updated', 'unchanged'],
          offset,
          limit: 7,
        });
        expect(page?.total).toBe(everything.length);
        paged.push(...page!.items);
      }
      expect(paged).toEqual(everything);
      const last = await logs.items('log1', { changes: ['unchanged'], offset: size, limit: 100 });
      expect(last).toEqual({ total: size + 2, items: tagged('unchanged', unchanged).slice(size) });
      expect(await logs.items('nolog', { changes: ['created'], offset: 0, limit: 1 })).toBeUndefined();
    });

    it('cuts a long message and a long list of tags short in a list', async () => {
      const created = Object.fromEntries(ids('t', 30).map((tag) => [tag, [`r1-${tag}`]]));
      const record = recordOf({ ...logOf(created), message: 'm'.repeat(5000) }, []);
      await save(record);

      const [listed] = (await logs.find({ offset: 0, limit: 10 })).records;
      expect(listed.tags).toEqual(ids('t', 10));
      expect(listed.tagCount).toBe(30);
      expect(listed.log?.message).toBe(`${'m'.repeat(500)}…`);
    });
  });

  it('puts the log back where a format answer holds it, as well as in the log', async () => {
    const log = logOf({ '-': ids('r1-u', PART_IDS + 1) });
    const result = { log, created: ids('r1-u', PART_IDS + 1), deleted: [], moved: { 'r1-old': 'r1-new' } };
    const record = recordOf(log, ids('r1-u', PART_IDS + 1), result);
    await save(record);

    expect(JSON.parse(String((await raw('log1'))?.props.result))).toMatchObject({
      created: [],
      moved: result.moved,
    });
    expect(await logs.get('log1')).toEqual(record);
  });

  it('stores walked lists by walking each once, and reads them back as the ids they walked', async () => {
    let walks = 0;
    const walked = (list: string[]) =>
      new WalkedIds(list.length, function* () {
        walks++;
        yield* list;
      });
    const created = { 'a.xml': ids('r1-a', PART_IDS + 1), 'b.xml': ids('r1-b', 2) };
    const log: ImportLogDocument<Ids> = {
      ...logOf(created),
      created_keys: { 'a.xml': walked(created['a.xml']), 'b.xml': walked(created['b.xml']) },
    };
    const touched = [...created['a.xml'], ...created['b.xml']];
    const record = recordOf(logOf(created), touched);
    await store.write((tx) => logs.writeIn(tx, { ...record, log, touched: walked(touched) }));

    // Once each into the parts; a `toJSON` on the way into the record would walk them again.
    expect(walks).toBe(3);
    expect(await logs.get('log1')).toEqual(record);
  });

  it('fails on a log whose parts are missing rather than answer a shortened one', async () => {
    await save(recordOf(logOf({ '-': ids('r1-u', PART_IDS + 1) }), []));
    await store.write((tx) => tx.putRecords([{ id: 'log1/1', type: IMPORT_LOG_RECORD_TYPE, props: {} }]));

    await expect(logs.get('log1')).rejects.toThrow('Import log part log1/1 is missing');
  });
});
