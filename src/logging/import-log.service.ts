import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GraphStore, GraphWriter, RecordNode } from '../graph/graph-store';
import { Props } from '../items/bundle';
import { ImportLogRecord, ImportOutcomeName } from './import-log.types';

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
const JSON_PROPERTIES = ['parameters', 'log', 'result', 'error'] as const;

function toProps(record: ImportLogRecord): Props {
  const props: Props = {
    endpoint: record.endpoint,
    user: record.user,
    tags: record.tags,
    touched: record.touched,
    outcome: record.outcome,
    started: record.started,
    finished: record.finished,
  };
  if (record.scope !== undefined) props.scope = record.scope;
  for (const name of JSON_PROPERTIES) {
    if (record[name] !== undefined) props[name] = JSON.stringify(record[name]);
  }
  return props;
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
  for (const name of JSON_PROPERTIES) {
    const text = props[name];
    if (typeof text === 'string') Object.assign(record, { [name]: JSON.parse(text) as unknown });
  }
  return record;
}

/**
 * Stored import logs (DESIGN.md §4): one `ImportLog` record per committed import, successful or
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

  /** Stores the log inside the import's own transaction: committed exactly when the import is. */
  async writeIn(tx: GraphWriter, record: ImportLogRecord): Promise<void> {
    await tx.putRecords([{ id: record.id, type: IMPORT_LOG_RECORD_TYPE, props: toProps(record) }]);
  }

  /** Stores the log in a transaction of its own: a failed import's record, after the rollback. */
  async write(record: ImportLogRecord): Promise<void> {
    await this.graph.write((tx) => this.writeIn(tx, record));
  }

  async get(id: string): Promise<ImportLogRecord | undefined> {
    const node = await this.graph.read((tx) => tx.getRecord(id));
    return node?.type === IMPORT_LOG_RECORD_TYPE ? fromNode(node) : undefined;
  }

  /** Newest first. */
  async find(query: ImportLogQuery): Promise<{ total: number; records: ImportLogRecord[] }> {
    const equals: Props = {};
    for (const name of ['user', 'scope', 'endpoint', 'outcome'] as const) {
      const value = query[name];
      if (value !== undefined) equals[name] = value;
    }
    const { total, records } = await this.graph.read((tx) =>
      tx.findRecords({
        type: IMPORT_LOG_RECORD_TYPE,
        equals,
        range: { property: 'started', from: query.from, to: query.to },
        orderBy: { property: 'started', descending: true },
        offset: query.offset,
        limit: query.limit,
      }),
    );
    return { total, records: records.map(fromNode) };
  }
}
