import { RecordWriter } from '../graph/records';
import { ItemChanges } from '../items/item-changes';
import { importLogRepository } from './import-log-repository';
import { ChangesSummary } from './import-log.types';

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
  async writeIn(tx: RecordWriter, logId: string): Promise<void> {
    await importLogRepository.putChanges(tx, logId, this.ids, this.texts);
  }
}
