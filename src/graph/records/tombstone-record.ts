import { Tombstone, TombstoneListQuery } from '../../items/tombstones';
import { RecordNode, RecordQuery } from '../records';

/** How a tombstone is stored: a record of this type, under `tombstoneRecordId` of its item. */
export const TOMBSTONE_RECORD_TYPE = 'Tombstone';

export function tombstoneRecordId(itemId: string): string {
  return `tombstone:${itemId}`;
}

export function tombstoneRecord(tombstone: Tombstone): RecordNode {
  const props: RecordNode['props'] = { itemId: tombstone.itemId, removed: tombstone.removed };
  if (tombstone.event !== undefined) props.event = tombstone.event;
  if (tombstone.movedTo !== undefined) props.movedTo = tombstone.movedTo;
  if (tombstone.repository !== undefined) props.repository = tombstone.repository;
  if (tombstone.country !== undefined) props.country = tombstone.country;
  return { id: tombstoneRecordId(tombstone.itemId), type: TOMBSTONE_RECORD_TYPE, props };
}

/** The tombstone a record holds; undefined for any other record. */
export function tombstoneOf(record: RecordNode | undefined): Tombstone | undefined {
  if (record?.type !== TOMBSTONE_RECORD_TYPE) return undefined;
  const { itemId, removed, event, movedTo, repository, country } = record.props;
  if (typeof itemId !== 'string' || typeof removed !== 'string') return undefined;
  return {
    itemId,
    removed,
    ...(typeof event === 'string' ? { event } : {}),
    ...(typeof movedTo === 'string' ? { movedTo } : {}),
    ...(typeof repository === 'string' ? { repository } : {}),
    ...(typeof country === 'string' ? { country } : {}),
  };
}

/** The query of the tombstone of the earliest removal. */
export function earliestTombstoneQuery(): RecordQuery {
  return { type: TOMBSTONE_RECORD_TYPE, orderBy: { property: 'removed' }, limit: 1 };
}

/** The query of the tombstones `query` keeps, in the order of their records' ids. */
export function tombstoneListQuery(query: TombstoneListQuery): RecordQuery {
  return {
    type: TOMBSTONE_RECORD_TYPE,
    ...(query.after === undefined ? {} : { after: query.after }),
    ...(query.place === undefined ? {} : { equals: { ...query.place } }),
    range: { property: 'removed', from: query.removed.from, to: query.removed.until },
    limit: query.limit,
  };
}
