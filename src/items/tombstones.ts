import { RecordNode } from '../graph/graph-store';

/**
 * What is left of an item that an import removed: when, by which import, and, for an item that
 * moved, its new id. The portal answers its old id with 410 Gone or 301 Moved Permanently.
 */
export interface Tombstone {
  itemId: string;
  /** ISO 8601 time of the import that removed it. */
  removed: string;
  /** The id of that import's log; absent for a removal no log recorded. */
  event?: string;
  /** The id the item lives on under, when the import moved it rather than deleting it. */
  movedTo?: string;
}

export const TOMBSTONE_RECORD_TYPE = 'Tombstone';

export function tombstoneRecordId(itemId: string): string {
  return `tombstone:${itemId}`;
}

export function tombstoneRecord(tombstone: Tombstone): RecordNode {
  const props: RecordNode['props'] = { itemId: tombstone.itemId, removed: tombstone.removed };
  if (tombstone.event !== undefined) props.event = tombstone.event;
  if (tombstone.movedTo !== undefined) props.movedTo = tombstone.movedTo;
  return { id: tombstoneRecordId(tombstone.itemId), type: TOMBSTONE_RECORD_TYPE, props };
}

/** The tombstone a record holds; undefined for any other record. */
export function tombstoneOf(record: RecordNode | undefined): Tombstone | undefined {
  if (record?.type !== TOMBSTONE_RECORD_TYPE) return undefined;
  const { itemId, removed, event, movedTo } = record.props;
  if (typeof itemId !== 'string' || typeof removed !== 'string') return undefined;
  return {
    itemId,
    removed,
    ...(typeof event === 'string' ? { event } : {}),
    ...(typeof movedTo === 'string' ? { movedTo } : {}),
  };
}
