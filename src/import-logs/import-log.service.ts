import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GraphReader, GraphStore, GraphWriter, RecordNode } from '../graph/graph-store';
import { Props } from '../items/bundle';
import { ItemChanges } from '../items/item-changes';
import { findChanges } from './change-records';
import { idLists, PART_IDS, PartedList, PartReader, writeParts } from './import-log-parts';
import { listItemOf, pageOfItems } from './import-log-items';
import {
  ChangesSummary,
  ImportLogItem,
  ImportLogListItem,
  ImportLogRecord,
  ImportOutcomeName,
  ItemChange,
} from './import-log.types';
import { Ids, WalkedIds } from './walked-ids';

export const IMPORT_LOG_RECORD_TYPE = 'ImportLog';

/** Filters of `GET /import/logs`; `from`/`to` bound the start time (ISO 8601, inclusive). */
export interface ImportLogQuery {
  user?: string;
  scope?: string;
  endpoint?: string;
  outcome?: ImportOutcomeName;
  from?: string;
  to?: string;
  offset: number;
  limit: number;
}

// Nested values are kept as JSON text: records hold flat properties only.
const JSON_PROPERTIES = ['parameters', 'log', 'result', 'error', 'changes'] as const;

/**
 * The record's properties; the lists in `parted` are left empty, their ids being in parts. Lists
 * that are not are short, and stored whole.
 */
function toProps(record: ImportLogRecord<Ids>, parted: ReadonlySet<unknown> = new Set()): Props {
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
  return props;
}

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

function stringList(value: Props[string] | undefined): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function fromNode(node: RecordNode): ImportLogRecord {
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
  return record;
}

/** The record with the ids of its parts, if a large log left them there, put back in place. */
async function withParts(tx: GraphReader, node: RecordNode): Promise<ImportLogRecord> {
  const record = fromNode(node);
  if (typeof node.props.parts !== 'string') return record;
  const parts = new PartReader(tx, node.id);
  for (const { path, count } of JSON.parse(node.props.parts) as PartedList[]) {
    placeAt(record as unknown as Record<string, unknown>, path, await parts.take(count));
  }
  return record;
}

function placeAt(root: Record<string, unknown>, path: readonly string[], ids: string[]): void {
  const holder = path.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, root);
  holder[path[path.length - 1]] = ids;
}

/**
 * Stored import logs (README, "Import logs"): one `ImportLog` record per committed import, successful or
 * not, queried by operators' dashboards.
 */
@Injectable()
export class ImportLogService {
  private lastTime = 0;

  constructor(private readonly graph: GraphStore) {}

  /**
   * The current time as ISO 8601, strictly later than the last one this service gave, so that
   * logs order by start time even when two imports start within one millisecond.
   */
  timestamp(): string {
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    return new Date(this.lastTime).toISOString();
  }

  /** A fresh log id, known before the import runs so that its answer can name it. */
  newId(): string {
    return randomUUID();
  }

  /**
   * Stores the log inside the import's own transaction: committed exactly when the import is. The
   * ids of a log that lists many are stored in part records (`import-log-parts.ts`).
   */
  async writeIn(tx: GraphWriter, record: ImportLogRecord<Ids>): Promise<void> {
    const lists = idLists({ touched: record.touched, log: record.log, result: record.result });
    const parted = lists.reduce((count, { ids }) => count + ids.length, 0) > PART_IDS ? lists : [];
    const props = toProps(record, new Set(parted.map(({ ids }) => ids)));
    if (parted.length > 0) {
      props.parts = JSON.stringify(parted.map(({ path, ids }): PartedList => ({ path, count: ids.length })));
    }
    await tx.putRecords([{ id: record.id, type: IMPORT_LOG_RECORD_TYPE, props }]);
    await writeParts(tx, record.id, parted);
  }

  /** Stores the log in a transaction of its own: a failed import's record, after the rollback. */
  async write(record: ImportLogRecord<Ids>): Promise<void> {
    await this.graph.write((tx) => this.writeIn(tx, record));
  }

  async get(id: string): Promise<ImportLogRecord | undefined> {
    return this.graph.read(async (tx) => {
      const node = await tx.getRecord(id);
      return node?.type === IMPORT_LOG_RECORD_TYPE ? withParts(tx, node) : undefined;
    });
  }

  /** A page of a stored log's per-item changes; undefined when there is no such log. */
  async changes(
    id: string,
    page: { item?: string; offset: number; limit: number },
  ): Promise<({ total: number; items: ItemChanges[] } & { truncated: boolean }) | undefined> {
    return this.graph.read(async (tx) => {
      const node = await tx.getRecord(id);
      if (node?.type !== IMPORT_LOG_RECORD_TYPE) return undefined;
      const summary =
        typeof node.props.changes === 'string'
          ? (JSON.parse(node.props.changes) as ChangesSummary)
          : undefined;
      return { ...(await findChanges(tx, id, page)), truncated: summary?.truncated ?? false };
    });
  }

  /** A page of the items a stored log lists (`pageOfItems`); undefined when there is no such log. */
  async items(
    id: string,
    page: { changes: readonly ItemChange[]; offset: number; limit: number },
  ): Promise<{ total: number; items: ImportLogItem[] } | undefined> {
    return this.graph.read(async (tx) => {
      const node = await tx.getRecord(id);
      return node?.type === IMPORT_LOG_RECORD_TYPE ? pageOfItems(tx, node, fromNode(node), page) : undefined;
    });
  }

  /** Newest first, as summaries: counts, no ids (`listItemOf`); no part record is read. */
  async find(query: ImportLogQuery): Promise<{ total: number; records: ImportLogListItem[] }> {
    const equals: Props = {};
    for (const name of ['user', 'scope', 'endpoint', 'outcome'] as const) {
      const value = query[name];
      if (value !== undefined) equals[name] = value;
    }
    return this.graph.read(async (tx) => {
      const { total, records } = await tx.findRecords({
        type: IMPORT_LOG_RECORD_TYPE,
        equals,
        range: { property: 'started', from: query.from, to: query.to },
        orderBy: { property: 'started', descending: true },
        offset: query.offset,
        limit: query.limit,
      });
      return { total, records: records.map((node) => listItemOf(node, fromNode(node))) };
    });
  }
}
