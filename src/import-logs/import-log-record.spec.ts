import {
  changeRecord,
  changesOf,
  changesQuery,
  IMPORT_CHANGE_RECORD_TYPE,
  IMPORT_LOG_PART_RECORD_TYPE,
  IMPORT_LOG_RECORD_TYPE,
  logOf,
  logQuery,
  logRecord,
  partIdsOf,
  partRecord,
} from './import-log-record';
import { ImportLogRecord } from './import-log.types';

const record: ImportLogRecord = {
  id: 'log1',
  endpoint: 'ead',
  parameters: { scope: 'r1', tag: ['a', 'b'] },
  user: 'u1',
  tokenId: 't1',
  scope: 'r1',
  requestId: 'req1',
  tags: ['a.xml'],
  log: {
    created: 2,
    created_keys: { 'a.xml': ['r1-a', 'r1-b'] },
    updated: 0,
    updated_keys: {},
    unchanged: 0,
    unchanged_keys: {},
    errors: {},
    message: null,
    event: 'log1',
  },
  changes: { count: 0, truncated: false },
  touched: ['r1-a', 'r1-b'],
  outcome: 'succeeded',
  started: '2026-01-01T00:00:00.000Z',
  finished: '2026-01-01T00:01:00.000Z',
};

describe('import log records', () => {
  it('reads back a log kept whole in its record', () => {
    const node = logRecord(record);
    expect(node).toMatchObject({ id: 'log1', type: IMPORT_LOG_RECORD_TYPE });
    expect(node.props.parts).toBeUndefined();
    expect(logOf(node)).toEqual({ record });
  });

  it('leaves the lists whose ids are in parts empty, and says where they go', () => {
    const created = record.log!.created_keys['a.xml'];
    const parts = [
      { ids: record.touched, list: { path: ['touched'], count: 2 } },
      { ids: created, list: { path: ['log', 'created_keys', 'a.xml'], count: 2 } },
    ];
    const stored = logOf(logRecord(record, parts));
    expect(stored?.parts).toEqual(parts.map(({ list }) => list));
    expect(stored?.record.touched).toEqual([]);
    expect(stored?.record.log?.created_keys).toEqual({ 'a.xml': [] });
    expect(record.log!.created_keys['a.xml']).toEqual(['r1-a', 'r1-b']);
  });

  it('reads no log from another record', () => {
    expect(logOf(undefined)).toBeUndefined();
    expect(logOf(partRecord('log1', 0, ['a']))).toBeUndefined();
  });

  it('reads back a part, and no part from another record', () => {
    const part = partRecord('log1', 3, ['a', 'b']);
    expect(part).toEqual({ id: 'log1/3', type: IMPORT_LOG_PART_RECORD_TYPE, props: { ids: ['a', 'b'] } });
    expect(partIdsOf(part)).toEqual(['a', 'b']);
    expect(partIdsOf(logRecord(record))).toBeUndefined();
  });

  it('reads back a change as its JSON text says', () => {
    const changes = {
      item: 'r1-a',
      type: 'DocumentaryUnit',
      changes: [{ path: 'name', change: 'added' as const }],
    };
    const node = changeRecord('log1', 7, 'r1-a', JSON.stringify(changes));
    expect(node).toEqual({
      id: 'log1/changes/7',
      type: IMPORT_CHANGE_RECORD_TYPE,
      props: { log: 'log1', item: 'r1-a', seq: 7, changes: JSON.stringify(changes) },
    });
    expect(changesOf(node)).toEqual(changes);
  });

  it('queries logs newest first by their filters, and a log changes in order', () => {
    expect(logQuery({ user: 'u1', outcome: 'failed', from: '2026', offset: 5, limit: 10 })).toEqual({
      type: IMPORT_LOG_RECORD_TYPE,
      equals: { user: 'u1', outcome: 'failed' },
      range: { property: 'started', from: '2026', to: undefined },
      orderBy: { property: 'started', descending: true },
      offset: 5,
      limit: 10,
    });
    expect(changesQuery('log1', { item: 'r1-a', offset: 0, limit: 2 })).toEqual({
      type: IMPORT_CHANGE_RECORD_TYPE,
      equals: { log: 'log1', item: 'r1-a' },
      orderBy: { property: 'seq' },
      offset: 0,
      limit: 2,
    });
  });
});
