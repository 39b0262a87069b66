import { RecordNode, RecordQuery } from '../graph/records';
import { Props } from '../items/bundle';
import { ItemChanges } from '../items/item-changes';
import { PartedList } from './import-log-parts';
import { ImportLogQuery, ImportLogRecord, ImportOutcomeName } from './import-log.types';
import { Ids, WalkedIds } from './walked-ids';

/**
 * How an import log is stored: one `ImportLog` record under the log's id; the ids of a large log in
 * `ImportLogPart` records beside it (`import-log-parts.ts`); what its updates changed, item by
 * item, in `ImportChange` records.
 */
export const IMPORT_LOG_RECORD_TYPE = 'ImportLog';
export const IMPORT_LOG_PART_RECORD_TYPE = 'ImportLogPart';
export const IMPORT_CHANGE_RECORD_TYPE = 'ImportChange';

/** A log as its record holds it: its lists in parts are empty, `parts` says where their ids go. */
export interface StoredLog {
  record: ImportLogRecord;
  parts?: PartedList[];
}

// Nested values are kept as JSON text: records hold flat properties only.
const JSON_PROPERTIES = ['parameters', 'log', 'result', 'error', 'changes'] as const;

/**
 * `value` with the lists in `parted` emptied: copied down to them, the rest shared. Not a
 * replacer of `JSON.stringify`, which would hand it what a walked list's `toJSON` gives: every id.
 * Lists are never inside arrays (`idLists`).
 */
function withoutParted(value: unknown, parted: ReadonlySet<unknown>): unknown {
  if (parted.has(value)) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof WalkedIds) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key, withoutParted(member, parted)]),
  );
}

/**
 * The log's record; the lists `parts` names (their ids being in part records) are left empty.
 * Lists that are not are short, and stored whole.
 */
export function logRecord(
  record: ImportLogRecord<Ids>,
  parts: readonly { ids: Ids; list: PartedList }[] = [],
): RecordNode {
  const parted = new Set<unknown>(parts.map(({ ids }) => ids));
  const props: Props = {
    endpoint: record.endpoint,
    user: record.user,
    tags: record.tags,
    touched: parted.has(record.touched) ? [] : [...record.touched],
    outcome: record.outcome,
    started: record.started,
    finished: record.finished,
  };
  if (record.scope !== undefined) props.scope = record.scope;
  if (record.tokenId !== undefined) props.tokenId = record.tokenId;
  if (record.requestId !== undefined) props.requestId = record.requestId;
  for (const name of JSON_PROPERTIES) {
    if (record[name] !== undefined) props[name] = JSON.stringify(withoutParted(record[name], parted));
  }
  if (parts.length > 0) props.parts = JSON.stringify(parts.map(({ list }) => list));
  return { id: record.id, type: IMPORT_LOG_RECORD_TYPE, props };
}

function stringList(value: Props[string] | undefined): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** The log a record holds, without the ids of its parts; undefined for any other record. */
export function logOf(node: RecordNode | undefined): StoredLog | undefined {
  if (node?.type !== IMPORT_LOG_RECORD_TYPE) return undefined;
  const { props } = node;
  const record: ImportLogRecord = {
    id: node.id,
    endpoint: String(props.endpoint),
    parameters: {},
    user: String(props.user),
    tags: stringList(props.tags),
    touched: stringList(props.touched),
    outcome: props.outcome as ImportOutcomeName,
    started: String(props.started),
    finished: String(props.finished),
  };
  if (typeof props.scope === 'string') record.scope = props.scope;
  if (typeof props.tokenId === 'string') record.tokenId = props.tokenId;
  if (typeof props.requestId === 'string') record.requestId = props.requestId;
  for (const name of JSON_PROPERTIES) {
    const text = props[name];
    if (typeof text === 'string') Object.assign(record, { [name]: JSON.parse(text) as unknown });
  }
  return typeof props.parts === 'string'
    ? { record, parts: JSON.parse(props.parts) as PartedList[] }
    : { record };
}

/** The record id of a log's part `index` (from 0). */
export function partId(logId: string, index: number): string {
  return `${logId}/${index}`;
}

export function partRecord(logId: string, index: number, ids: string[]): RecordNode {
  return { id: partId(logId, index), type: IMPORT_LOG_PART_RECORD_TYPE, props: { ids } };
}

/** The ids a part record holds; undefined for any other record. */
export function partIdsOf(node: RecordNode | undefined): string[] | undefined {
  const ids = node?.type === IMPORT_LOG_PART_RECORD_TYPE ? node.props.ids : undefined;
  return Array.isArray(ids) ? ids.map(String) : undefined;
}

/** The record of a log's `seq`th change, `text` being the item's changes as JSON. */
export function changeRecord(logId: string, seq: number, item: string, text: string): RecordNode {
  return {
    id: `${logId}/changes/${seq}`,
    type: IMPORT_CHANGE_RECORD_TYPE,
    props: { log: logId, item, seq, changes: text },
  };
}

export function changesOf(node: RecordNode): ItemChanges {
  return JSON.parse(String(node.props.changes)) as ItemChanges;
}

/** The query of the logs `query` keeps, newest first. */
export function logQuery(query: ImportLogQuery): RecordQuery {
  const equals: Props = {};
  for (const name of ['user', 'scope', 'endpoint', 'outcome'] as const) {
    const value = query[name];
    if (value !== undefined) equals[name] = value;
  }
  return {
    type: IMPORT_LOG_RECORD_TYPE,
    equals,
    range: { property: 'started', from: query.from, to: query.to },
    orderBy: { property: 'started', descending: true },
    offset: query.offset,
    limit: query.limit,
  };
}

/** The query of a page of a log's changes in the order they were written; `item` picks one item's. */
export function changesQuery(
  logId: string,
  page: { item?: string; offset: number; limit: number },
): RecordQuery {
  return {
    type: IMPORT_CHANGE_RECORD_TYPE,
    equals: page.item === undefined ? { log: logId } : { log: logId, item: page.item },
    orderBy: { property: 'seq' },
    offset: page.offset,
    limit: page.limit,
  };
}
