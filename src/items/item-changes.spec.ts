import { Bundle } from './bundle';
import { itemChanges } from './item-changes';

function unit(data: Bundle['data'], descriptions: Bundle[] = []): Bundle {
  return { id: 'u1', type: 'DocumentaryUnit', data, relations: { describes: descriptions } };
}

function description(lang: string, data: Bundle['data'], dates: Bundle[] = []): Bundle {
  return {
    id: `u1.${lang}`,
    type: 'DocumentaryUnitDescription',
    data: { languageCode: lang, ...data },
    relations: dates.length > 0 ? { hasDate: dates } : {},
  };
}

function date(id: string, start: string): Bundle {
  return { id, type: 'DatePeriod', data: { startDate: start }, relations: {} };
}

describe('itemChanges', () => {
  it('lists added, removed and changed data fields with before and after, managed keys left out', () => {
    const before = unit({ identifier: 'c1', otherIdentifiers: ['a'], gone: 'x', _updated: 't1' });
    const after = unit({ identifier: 'c2', otherIdentifiers: ['a', 'b'], added: 3, _updated: 't2' });
    expect(itemChanges({ bundle: before, edges: {} }, { bundle: after }).changes).toEqual([
      { path: 'added', change: 'added', after: 3 },
      { path: 'gone', change: 'removed', before: 'x' },
      { path: 'identifier', change: 'changed', before: 'c1', after: 'c2' },
      { path: 'otherIdentifiers', change: 'changed', before: ['a'], after: ['a', 'b'] },
    ]);
  });

  it('reports a field named like an object property as added, not changed from the prototype', () => {
    const before = unit({ identifier: 'c1' });
    const after = unit({ identifier: 'c1', constructor: 'x', toString: 'y' });
    expect(itemChanges({ bundle: before, edges: {} }, { bundle: after }).changes).toEqual([
      { path: 'constructor', change: 'added', after: 'x' },
      { path: 'toString', change: 'added', after: 'y' },
    ]);
  });

  it('compares a description kept under its id field by field, down to its dates', () => {
    const before = unit({}, [description('eng', { name: 'Old' }, [date('u1.eng/hasDate/0', '1939')])]);
    const after = unit({}, [description('eng', { name: 'New' }, [date('u1.eng/hasDate/0', '1940')])]);
    expect(itemChanges({ bundle: before, edges: {} }, { bundle: after })).toEqual({
      item: 'u1',
      type: 'DocumentaryUnit',
      changes: [
        { path: 'describes[u1.eng].name', change: 'changed', before: 'Old', after: 'New' },
        {
          path: 'describes[u1.eng].hasDate[u1.eng/hasDate/0].startDate',
          change: 'changed',
          before: '1939',
          after: '1940',
        },
      ],
    });
  });

  it('reports dependents added and removed whole, and pairs equal ones whatever their ids', () => {
    const before = unit({}, [description('eng', { name: 'Same' }), description('fra', { name: 'Nom' })]);
    const moved = { ...description('eng', { name: 'Same' }), id: 'u1.eng-renumbered' };
    const after = unit({}, [moved, description('deu', { name: 'Name' })]);
    expect(itemChanges({ bundle: before, edges: {} }, { bundle: after }).changes).toEqual([
      {
        path: 'describes[u1.fra]',
        change: 'removed',
        before: { type: 'DocumentaryUnitDescription', data: { languageCode: 'fra', name: 'Nom' } },
      },
      {
        path: 'describes[u1.deu]',
        change: 'added',
        after: { type: 'DocumentaryUnitDescription', data: { languageCode: 'deu', name: 'Name' } },
      },
    ]);
  });

  it('compares the edge types the write names, in any order, and only those', () => {
    const bundle = unit({});
    const changes = itemChanges(
      { bundle, edges: { heldBy: ['r1'], childOf: ['p1'], hasPermissionScope: ['a', 'b'] } },
      { bundle, edges: { heldBy: ['r2'], hasPermissionScope: ['b', 'a'] } },
    ).changes;
    expect(changes).toEqual([{ path: 'edges.heldBy', change: 'changed', before: ['r1'], after: ['r2'] }]);
  });

  it('finds nothing between equal items', () => {
    const bundle = unit({ identifier: 'c1' }, [description('eng', { name: 'A' })]);
    expect(itemChanges({ bundle, edges: {} }, { bundle: structuredClone(bundle) }).changes).toEqual([]);
  });
});
