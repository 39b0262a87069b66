import { Tombstone, TombstoneListQuery } from '../../items/tombstones';
import { RecordReader, RecordWriter } from '../records';
import {
  earliestTombstoneQuery,
  tombstoneListQuery,
  tombstoneOf,
  tombstoneRecord,
  tombstoneRecordId,
} from './tombstone-record';

/** A tombstone as a list of them gives it, with the id of its record: the list's cursor. */
export interface ListedTombstone {
  recordId: string;
  tombstone: Tombstone;
}

/**
 * The tombstones' repository. Its operations take the caller's transaction, so that a sync writes
 * its tombstones in the transaction that deletes the items.
 */
export const tombstoneRepository = {
  async get(tx: RecordReader, itemId: string): Promise<Tombstone | undefined> {
    return tombstoneOf(await tx.getRecord(tombstoneRecordId(itemId)));
  },

  async put(tx: RecordWriter, tombstones: readonly Tombstone[]): Promise<void> {
    await tx.putRecords(tombstones.map(tombstoneRecord));
  },

  /** The tombstone of the earliest removal; undefined when there is none. */
  async earliest(tx: RecordReader): Promise<Tombstone | undefined> {
    const { records } = await tx.findRecords(earliestTombstoneQuery());
    return tombstoneOf(records[0]);
  },

  /**
   * A page of tombstones; `next`, the cursor to the page after, only when the page is full (a
   * record that holds no tombstone still counts, so that the cursor moves past it).
   */
  async list(
    tx: RecordReader,
    query: TombstoneListQuery,
  ): Promise<{ tombstones: ListedTombstone[]; next?: string }> {
    const { records } = await tx.findRecords(tombstoneListQuery(query));
    const tombstones = records.flatMap((record) => {
      const tombstone = tombstoneOf(record);
      return tombstone === undefined ? [] : [{ recordId: record.id, tombstone }];
    });
    const full = records.length === query.limit && records.length > 0;
    return full ? { tombstones, next: records[records.length - 1].id } : { tombstones };
  },
};
