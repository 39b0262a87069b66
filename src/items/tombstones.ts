import { GraphReader, RecordNode } from '../graph/graph-store';

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
  /**
   * The repository and the country the item was below, where known: a harvest (OAI-PMH) lists
   * the deletion in their sets, which the item, gone, can no longer tell.
   */
  repository?: string;
  country?: string;
}

/** The repository and the country of the items below an item: those above it, or it itself. */
export async function placeOf(
  reader: GraphReader,
  itemId: string,
): Promise<Pick<Tombstone, 'repository' | 'country'>> {
  const type = (await reader.getTypes([itemId])).get(itemId);
  if (type === undefined) return {};
  const chain = [{ id: itemId, type }, ...((await reader.ancestors([itemId])).get(itemId) ?? [])];
  const repository = chain.find((item) => item.type === 'Repository')?.id;
  const country = chain.find((item) => item.type === 'Country')?.id;
  return {
    ...(repository === undefined ? {} : { repository }),
    ...(country === undefined ? {} : { country }),
  };
}

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
