import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GraphStore } from '../graph/graph-store';
import { RecordWriter } from '../graph/records';
import { ItemChanges } from '../items/item-changes';
import { listItemOf, pageOfItems } from './import-log-items';
import { importLogRepository } from './import-log-repository';
import {
  ImportLogItem,
  ImportLogListItem,
  ImportLogQuery,
  ImportLogRecord,
  ItemChange,
} from './import-log.types';
import { Ids } from './walked-ids';

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
  async writeIn(tx: RecordWriter, record: ImportLogRecord<Ids>): Promise<void> {
    await importLogRepository.put(tx, record);
  }

  /** Stores the log in a transaction of its own: a failed import's record, after the rollback. */
  async write(record: ImportLogRecord<Ids>): Promise<void> {
    await this.graph.write((tx) => importLogRepository.put(tx, record));
  }

  async get(id: string): Promise<ImportLogRecord | undefined> {
    return this.graph.read(async (tx) => {
      const stored = await importLogRepository.get(tx, id);
      return stored && importLogRepository.whole(tx, stored);
    });
  }

  /** A page of a stored log's per-item changes; undefined when there is no such log. */
  async changes(
    id: string,
    page: { item?: string; offset: number; limit: number },
  ): Promise<({ total: number; items: ItemChanges[] } & { truncated: boolean }) | undefined> {
    return this.graph.read(async (tx) => {
      const stored = await importLogRepository.get(tx, id);
      if (stored === undefined) return undefined;
      const truncated = stored.record.changes?.truncated ?? false;
      return { ...(await importLogRepository.findChanges(tx, id, page)), truncated };
    });
  }

  /** A page of the items a stored log lists (`pageOfItems`); undefined when there is no such log. */
  async items(
    id: string,
    page: { changes: readonly ItemChange[]; offset: number; limit: number },
  ): Promise<{ total: number; items: ImportLogItem[] } | undefined> {
    return this.graph.read(async (tx) => {
      const stored = await importLogRepository.get(tx, id);
      return stored && pageOfItems(tx, stored, page);
    });
  }

  /** Newest first, as summaries: counts, no ids (`listItemOf`); no part record is read. */
  async find(query: ImportLogQuery): Promise<{ total: number; records: ImportLogListItem[] }> {
    return this.graph.read(async (tx) => {
      const { total, logs } = await importLogRepository.find(tx, query);
      return { total, records: logs.map(listItemOf) };
    });
  }
}
