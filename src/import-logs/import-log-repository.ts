import { RecordNode, RecordReader, RecordWriter } from '../graph/records';
import { ItemChanges } from '../items/item-changes';
import { idLists, IdList, PART_IDS } from './import-log-parts';
import {
  changeRecord,
  changesOf,
  changesQuery,
  logOf,
  logQuery,
  logRecord,
  partId,
  partIdsOf,
  partRecord,
  StoredLog,
} from './import-log-record';
import { ImportLogQuery, ImportLogRecord } from './import-log.types';
import { Ids } from './walked-ids';

/** Change records written per round trip to the store. */
const CHANGES_PER_WRITE = 500;

/** Writes the lists' ids, one after the other, `PART_IDS` to a part record. */
async function writeParts(tx: RecordWriter, logId: string, lists: readonly IdList[]): Promise<void> {
  let part: string[] = [];
  let index = 0;
  const flush = async () => {
    await tx.putRecords([partRecord(logId, index++, part)]);
    part = [];
  };
  for (const { ids } of lists) {
    for (const id of ids) {
      part.push(id);
      if (part.length === PART_IDS) await flush();
    }
  }
  if (part.length > 0) await flush();
}

/** Reads a log's parts back in order, one part at a time, handing out as many ids as asked for. */
class PartReader {
  private ids: string[] = [];
  private offset = 0;
  private next = 0;

  constructor(
    private readonly tx: RecordReader,
    private readonly logId: string,
  ) {}

  async take(count: number): Promise<string[]> {
    const taken: string[] = [];
    while (taken.length < count) {
      if (this.offset === this.ids.length) await this.load();
      const end = Math.min(this.ids.length, this.offset + count - taken.length);
      for (; this.offset < end; this.offset++) taken.push(this.ids[this.offset]);
    }
    return taken;
  }

  private async load(): Promise<void> {
    const id = partId(this.logId, this.next++);
    const ids = partIdsOf(await this.tx.getRecord(id));
    if (ids === undefined || ids.length === 0) throw new Error(`Import log part ${id} is missing`);
    this.ids = ids;
    this.offset = 0;
  }
}

function placeAt(root: Record<string, unknown>, path: readonly string[], ids: string[]): void {
  const holder = path.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, root);
  holder[path[path.length - 1]] = ids;
}

/**
 * The import logs' repository (their mapper: `import-log-record.ts`). Its operations take the
 * caller's transaction, so that an import's log is stored in the import's own transaction,
 * committed exactly when the import is.
 */
export const importLogRepository = {
  /** Stores a log; the ids of a log that lists many go to part records (`import-log-parts.ts`). */
  async put(tx: RecordWriter, record: ImportLogRecord<Ids>): Promise<void> {
    const lists = idLists({ touched: record.touched, log: record.log, result: record.result });
    const parted = lists.reduce((count, { ids }) => count + ids.length, 0) > PART_IDS ? lists : [];
    const parts = parted.map(({ path, ids }) => ({ ids, list: { path, count: ids.length } }));
    await tx.putRecords([logRecord(record, parts)]);
    await writeParts(tx, record.id, parted);
  },

  /** A log as its record holds it, no part read; undefined when there is no such log. */
  async get(tx: RecordReader, id: string): Promise<StoredLog | undefined> {
    return logOf(await tx.getRecord(id));
  },

  /** The log with the ids of its parts, if a large log left them there, put back in place. */
  async whole(tx: RecordReader, stored: StoredLog): Promise<ImportLogRecord> {
    const { record } = stored;
    if (stored.parts === undefined) return record;
    const parts = new PartReader(tx, record.id);
    for (const { path, count } of stored.parts) {
      placeAt(record as unknown as Record<string, unknown>, path, await parts.take(count));
    }
    return record;
  },

  /** Ids `from` (inclusive) to `to` (exclusive) among all of a log's part records. */
  async partIds(tx: RecordReader, logId: string, from: number, to: number): Promise<string[]> {
    const ids: string[] = [];
    for (let part = Math.floor(from / PART_IDS); part * PART_IDS < to; part++) {
      const stored = partIdsOf(await tx.getRecord(partId(logId, part)));
      if (stored === undefined) throw new Error(`Import log part ${partId(logId, part)} is missing`);
      const offset = part * PART_IDS;
      ids.push(...stored.slice(Math.max(0, from - offset), to - offset));
    }
    return ids;
  },

  /** Newest first, as their records hold them: no part record is read. */
  async find(tx: RecordReader, query: ImportLogQuery): Promise<{ total: number; logs: StoredLog[] }> {
    const { total, records } = await tx.findRecords(logQuery(query));
    return { total, logs: records.flatMap((node) => logOf(node) ?? []) };
  },

  /**
   * Stores what a log's updates changed, item by item in the order they were written: `items[i]`
   * changed as the JSON text `texts[i]` says.
   */
  async putChanges(
    tx: RecordWriter,
    logId: string,
    items: readonly string[],
    texts: readonly string[],
  ): Promise<void> {
    for (let start = 0; start < texts.length; start += CHANGES_PER_WRITE) {
      const end = Math.min(texts.length, start + CHANGES_PER_WRITE);
      const records: RecordNode[] = [];
      for (let seq = start; seq < end; seq++) records.push(changeRecord(logId, seq, items[seq], texts[seq]));
      await tx.putRecords(records);
    }
  },

  /** A page of a log's changes, in the order they were written; `item` picks one item's. */
  async findChanges(
    tx: RecordReader,
    logId: string,
    page: { item?: string; offset: number; limit: number },
  ): Promise<{ total: number; items: ItemChanges[] }> {
    const { total, records } = await tx.findRecords(changesQuery(logId, page));
    return { total, items: records.map(changesOf) };
  },
};
