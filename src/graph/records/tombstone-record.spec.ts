import { Tombstone } from '../../items/tombstones';
import {
  earliestTombstoneQuery,
  TOMBSTONE_RECORD_TYPE,
  tombstoneListQuery,
  tombstoneOf,
  tombstoneRecord,
  tombstoneRecordId,
} from './tombstone-record';

describe('tombstone records', () => {
  it.each<[string, Tombstone]>([
    ['a deletion', { itemId: 'nl-r1-a', removed: '2026-01-01T00:00:00.000Z' }],
    [
      'a move, with its place and its import',
      {
        itemId: 'nl-r1-b',
        removed: '2026-01-01T00:00:00.000Z',
        event: 'log1',
        movedTo: 'nl-r1-c',
        repository: 'nl-r1',
        country: 'nl',
      },
    ],
  ])('reads back %s as it was written', (_, tombstone) => {
    const record = tombstoneRecord(tombstone);
    expect(record.id).toBe(tombstoneRecordId(tombstone.itemId));
    expect(record.type).toBe(TOMBSTONE_RECORD_TYPE);
    expect(tombstoneOf(record)).toEqual(tombstone);
  });

  it('reads no tombstone from another record, nor from one without its time', () => {
    expect(tombstoneOf(undefined)).toBeUndefined();
    expect(tombstoneOf({ id: 'x', type: 'ImportLog', props: { itemId: 'a', removed: 'b' } })).toBeUndefined();
    expect(tombstoneOf({ id: 'x', type: TOMBSTONE_RECORD_TYPE, props: { itemId: 'a' } })).toBeUndefined();
  });

  it('queries by removal time, place and cursor', () => {
    expect(earliestTombstoneQuery()).toEqual({
      type: TOMBSTONE_RECORD_TYPE,
      orderBy: { property: 'removed' },
      limit: 1,
    });
    expect(
      tombstoneListQuery({
        after: 'tombstone:a',
        place: { country: 'nl' },
        removed: { from: '2026' },
        limit: 3,
      }),
    ).toEqual({
      type: TOMBSTONE_RECORD_TYPE,
      after: 'tombstone:a',
      equals: { country: 'nl' },
      range: { property: 'removed', from: '2026', to: undefined },
      limit: 3,
    });
  });
});
