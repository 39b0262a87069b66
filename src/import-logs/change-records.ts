import { GraphReader, GraphWriter, RecordNode } from '../graph/graph-store';
import { ItemChanges } from '../items/item-changes';
import { ChangesSummary } from './import-log.types';

export const IMPORT_CHANGE_RECORD_TYPE = 'ImportChange';

/** Change records written per round trip to the store. */
const RECORDS_PER_WRITE = 500;

/**
 * What an import's updates changed, item by item, up to a cap of serialised bytes so that a
 * re-import that changes everything keeps a bounded log; past the cap it keeps counting nothing
 * more and says it was cut. Held as JSON texts: they are stored as they are.
 */
export class ChangeRecorder {
  private readonly texts: string[] = [];
  private readonly ids: string[] = [];
  private bytes = 0;
  private cut = false;

  constructor(private readonly maxBytes: number) {}

  record(changes: ItemChanges): void {
    if (this.cut) return;
    const text = JSON.stringify(changes);
    if (this.bytes + text.length > this.maxBytes) {
      this.cut = true;
      return;
    }
    this.bytes += text.length;
    this.texts.push(text);
    this.ids.push(changes.item);
  }

  /** Whether no update was recorded, not even past the cap. */
  get isEmpty(): boolean {
    return this.texts.length === 0 && !this.cut;
  }

  get summary(): ChangesSummary {
    return { count: this.texts.length, truncated: this.cut };
  }

  /** The recorded changes, in the order the updates were written. */
  changes(): ItemChanges[] {
    return this.texts.map((text) => JSON.parse(text) as ItemChanges);
  }

  /** Stores the changes as records of the log `logId`, inside the import's transaction. */
  async writeIn(tx: GraphWriter, logId: string): Promise<void> {
    for (let start = 0; start < this.texts.length; start += RECORDS_PER_WRITE) {
      const records: RecordNode[] = [];
      const end = Math.min(this.texts.length, start + RECORDS_PER_WRITE);
      for (let seq = start; seq < end; seq++) {
        records.push({
          id: `${logId}/changes/${seq}`,
          type: IMPORT_CHANGE_RECORD_TYPE,
          props: { log: logId, item: this.ids[seq], seq, changes: this.texts[seq] },
        });
      }
      await tx.putRecords(records);
    }
  }
}

/** A page of a stored log's change records, in the order they were written; `item` picks one item's. */
export async function findChanges(
  tx: GraphReader,
  logId: string,
  page: { item?: string; offset: number; limit: number },
): Promise<{ total: number; items: ItemChanges[] }> {
  const { total, records } = await tx.findRecords({
    type: IMPORT_CHANGE_RECORD_TYPE,
    equals: page.item === undefined ? { log: logId } : { log: logId, item: page.item },
    orderBy: { property: 'seq' },
    offset: page.offset,
    limit: page.limit,
  });
  return { total, items: records.map((record) => JSON.parse(String(record.props.changes)) as ItemChanges) };
}
