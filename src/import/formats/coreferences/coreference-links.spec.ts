import { AccessPointMatch, StoredItem } from '../../../graph/graph-store';
import { coreferenceGroups, coreferenceRow, linkForGroup } from './coreference-links';

function match(accessPointId: string, itemId: string, name: string): AccessPointMatch {
  return { accessPointId, itemId, name, type: 'subject' };
}

function link(id: string, ends: string[], bodies: string[] = []): StoredItem {
  return {
    bundle: { id, type: 'Link', data: { type: 'associative' }, relations: {} },
    edges: { hasLinkTarget: ends, ...(bodies.length > 0 ? { hasLinkBody: bodies } : {}) },
    hash: 'h',
    updated: '2024-01-01T00:00:00.000Z',
  };
}

describe('coreferenceRow', () => {
  it('reads the label and the target', () => {
    expect(coreferenceRow({ row: 2, cells: ['Person Access 2', 'a1'] })).toEqual({
      row: 2,
      label: 'Person Access 2',
      target: 'a1',
    });
  });

  it.each([
    [['Person Access 2'], 'a coreference row has 2 columns (access point label, target ID), this one has 1'],
    [['', 'a1'], 'the access point label (column 1) is empty'],
    [['Person Access 2', ''], 'the target ID (column 2) is empty'],
  ])('finds the problem with %j', (cells, problem) => {
    expect(coreferenceRow({ row: 5, cells })).toEqual({ row: 5, problem });
  });
});

describe('coreferenceGroups', () => {
  it('groups the access points of one item coreferenced to one target', () => {
    const groups = coreferenceGroups(
      [
        { row: 1, label: 'Person Access 2', target: 'a1' },
        { row: 2, label: 'Kien, Leonhard', target: 'a1' },
        { row: 3, label: 'Kien, Leonhard', target: 'a2' },
      ],
      [
        match('ur3', 'c3', 'Person Access 2'),
        match('ur9', 'c3', 'Kien, Leonhard'),
        match('ur7', 'c1', 'Kien, Leonhard'),
        match('ur0', 'c5', 'Unrelated'),
      ],
    );

    expect(groups).toEqual([
      { itemId: 'c1', target: 'a1', label: 'Kien, Leonhard', accessPoints: ['ur7'] },
      { itemId: 'c1', target: 'a2', label: 'Kien, Leonhard', accessPoints: ['ur7'] },
      { itemId: 'c3', target: 'a1', label: 'Person Access 2', accessPoints: ['ur3', 'ur9'] },
      { itemId: 'c3', target: 'a2', label: 'Kien, Leonhard', accessPoints: ['ur9'] },
    ]);
  });

  it('does not link an item to itself', () => {
    expect(coreferenceGroups([{ row: 1, label: 'Self', target: 'a1' }], [match('ua', 'a1', 'Self')])).toEqual(
      [],
    );
  });
});

describe('linkForGroup', () => {
  const group = { itemId: 'c3', target: 'a1', label: 'Person Access 2', accessPoints: ['ur3'] };

  it('prefers a link to the target that already has one of the access points', () => {
    const links = [
      link('l1', ['a1', 'c3']),
      link('l2', ['a1', 'c3'], ['ur3']),
      link('l0', ['a2', 'c3'], ['ur3']),
    ];
    expect(linkForGroup(group, links)?.bundle.id).toBe('l2');
  });

  it('takes the first link to the target otherwise, and none when no link reaches it', () => {
    expect(linkForGroup(group, [link('l3', ['a1', 'c3']), link('l1', ['a1', 'c3'])])?.bundle.id).toBe('l1');
    expect(linkForGroup(group, [link('l0', ['a2', 'c3'])])).toBeUndefined();
  });
});
