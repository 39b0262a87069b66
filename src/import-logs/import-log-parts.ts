import { GraphReader, GraphWriter } from '../graph/graph-store';
import { Ids, WalkedIds } from './walked-ids';

export const IMPORT_LOG_PART_RECORD_TYPE = 'ImportLogPart';

/**
 * Ids per part record. A record is stored as one JSON text in one row: with every id of a large
 * log in its record, that text and its copies on the way into SQLite took memory that grew with
 * the import at its end. In parts, one part's ids are serialised at a time.
 */
export const PART_IDS = 2000;

/** A list of ids in a stored log: where it goes in the record, and the ids. */
export interface IdList {
  /** The record's field (`touched`, `log`, `result`), then the keys down to the list. */
  path: string[];
  ids: Ids;
}

/** What the log record keeps of a list whose ids are in parts: the parts hold them in this order. */
export interface PartedList {
  path: string[];
  count: number;
}

function isIdList(value: unknown[]): value is string[] {
  return value.length > 0 && value.every((element) => typeof element === 'string');
}

/**
 * The non-empty arrays of strings and walked lists in `value`, in JSON order; arrays of other
 * things are left.
 */
export function idLists(value: unknown, path: string[] = []): IdList[] {
  if (value instanceof WalkedIds) return value.length > 0 ? [{ path, ids: value }] : [];
  if (Array.isArray(value)) return isIdList(value) ? [{ path, ids: value }] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => idLists(child, [...path, key]));
}

function partId(logId: string, index: number): string {
  return `${logId}/${index}`;
}

/** Writes the lists' ids, one after the other, `PART_IDS` to a part record. */
export async function writeParts(tx: GraphWriter, logId: string, lists: readonly IdList[]): Promise<void> {
  let part: string[] = [];
  let index = 0;
  const flush = async () => {
    await tx.putRecords([
      { id: partId(logId, index++), type: IMPORT_LOG_PART_RECORD_TYPE, props: { ids: part } },
    ]);
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
export class PartReader {
  private ids: string[] = [];
  private offset = 0;
  private next = 0;

  constructor(
    private readonly tx: GraphReader,
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
    const node = await this.tx.getRecord(id);
    const ids = node?.type === IMPORT_LOG_PART_RECORD_TYPE ? node.props.ids : undefined;
    if (!Array.isArray(ids) || ids.length === 0) throw new Error(`Import log part ${id} is missing`);
    this.ids = ids.map(String);
    this.offset = 0;
  }
}
