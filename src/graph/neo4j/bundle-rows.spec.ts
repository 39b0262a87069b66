import { ItemWrite } from '../graph-store';
import { Bundle } from '../../items/bundle';
import { DEPENDENT_RELATIONS } from '../../items/item-types';
import {
  FlatBundle,
  GraphLink,
  GraphNode,
  flattenItem,
  recordFromNode,
  recordProps,
  storedItem,
} from './bundle-rows';

const unit: ItemWrite = {
  hash: 'hash-u1',
  edges: { heldBy: ['r1'] },
  bundle: {
    id: 'u1',
    type: 'DocumentaryUnit',
    data: { identifier: 'C-1', extentCount: 3, otherIdentifiers: ['old'] },
    relations: {
      describes: [
        {
          id: 'u1.eng',
          type: 'DocumentaryUnitDescription',
          data: { name: 'Ghetto records', languageCode: 'eng', scopeAndContent: 'Letters from Łódź' },
          relations: {
            relatesTo: [
              {
                id: 'u1.eng.ap1',
                type: 'AccessPoint',
                data: { name: 'Warsaw', type: 'place' },
                relations: {},
              },
              {
                id: 'u1.eng.ap0',
                type: 'AccessPoint',
                data: { name: 'Kraków', type: 'place' },
                relations: {},
              },
            ],
            hasDate: [{ id: 'u1.eng.d0', type: 'DatePeriod', data: { startDate: '1940' }, relations: {} }],
          },
        },
      ],
      maintenance: [{ id: 'u1.m0', type: 'MaintenanceEvent', data: { eventType: 'created' }, relations: {} }],
    },
  },
};

/** The nodes and relationships the write statements make of `flat`, as the driver returns them. */
function asStored(flat: FlatBundle, updated: string) {
  const item: GraphNode = { elementId: 'item', properties: { ...flat.item.props, _updated: updated } };
  const dependents: GraphNode[] = flat.dependents.map((row) => ({
    elementId: `dependent:${row.props.id}`,
    properties: row.props,
  }));
  const links: GraphLink[] = flat.links.map((row) => {
    const parent = row.parent === undefined ? 'item' : `dependent:${row.parent}`;
    const child = `dependent:${row.child}`;
    const outwards = DEPENDENT_RELATIONS[row.relation] === 'out';
    return {
      type: row.relation,
      startNodeElementId: outwards ? parent : child,
      endNodeElementId: outwards ? child : parent,
    };
  });
  return { item, dependents, links };
}

function sortedById(bundle: Bundle): Bundle {
  const relations = Object.fromEntries(
    Object.entries(bundle.relations).map(([relation, children]) => [
      relation,
      children.map(sortedById).sort((a, b) => a.id.localeCompare(b.id)),
    ]),
  );
  return { ...bundle, relations };
}

describe('flattenItem', () => {
  const flat = flattenItem(unit);

  it('gives the item its data, id, type, hash and searchable words', () => {
    expect(flat.item).toEqual({
      type: 'DocumentaryUnit',
      props: {
        identifier: 'C-1',
        extentCount: 3,
        otherIdentifiers: ['old'],
        id: 'u1',
        _type: 'DocumentaryUnit',
        _hash: 'hash-u1',
        _names: 'c 1 old ghetto records',
        _text: 'letters from łodz warsaw krakow',
        _titles: 'ghetto records',
        _identifiers: 'c 1 old',
        _scope: 'letters from łodz',
      },
    });
  });

  it('gives every dependent, however deep, its owner item', () => {
    expect(flat.dependents.map((row) => [row.type, row.props.id, row.props._owner])).toEqual([
      ['DocumentaryUnitDescription', 'u1.eng', 'u1'],
      ['AccessPoint', 'u1.eng.ap1', 'u1'],
      ['AccessPoint', 'u1.eng.ap0', 'u1'],
      ['DatePeriod', 'u1.eng.d0', 'u1'],
      ['MaintenanceEvent', 'u1.m0', 'u1'],
    ]);
    expect(flat.dependents[1].props).toEqual({
      name: 'Warsaw',
      type: 'place',
      id: 'u1.eng.ap1',
      _type: 'AccessPoint',
      _owner: 'u1',
    });
  });

  it('ties each dependent to its parent, the item itself having no parent id', () => {
    expect(flat.links).toEqual([
      { relation: 'describes', owner: 'u1', child: 'u1.eng' },
      { relation: 'relatesTo', owner: 'u1', parent: 'u1.eng', child: 'u1.eng.ap1' },
      { relation: 'relatesTo', owner: 'u1', parent: 'u1.eng', child: 'u1.eng.ap0' },
      { relation: 'hasDate', owner: 'u1', parent: 'u1.eng', child: 'u1.eng.d0' },
      { relation: 'maintenance', owner: 'u1', child: 'u1.m0' },
    ]);
  });

  it('refuses data that would overwrite bookkeeping', () => {
    const clashing = { ...unit, bundle: { ...unit.bundle, data: { _hash: 'forged' } } };
    expect(() => flattenItem(clashing)).toThrow('Property "_hash" is reserved');
  });

  it('refuses an item among the dependents and a dependent as the item', () => {
    const nestedItem = {
      ...unit,
      bundle: { ...unit.bundle, relations: { describes: [{ ...unit.bundle, relations: {} }] } },
    };
    expect(() => flattenItem(nestedItem)).toThrow('Not a dependent type: DocumentaryUnit');
    const description = unit.bundle.relations.describes![0];
    expect(() => flattenItem({ ...unit, bundle: description })).toThrow(
      'Not an item type: DocumentaryUnitDescription',
    );
  });
});

describe('storedItem', () => {
  it('rebuilds the bundle written, dependents in id order, without bookkeeping', () => {
    const stored = storedItem({ ...asStored(flattenItem(unit), '2024-05-01T00:00:00.000Z'), edges: [] });
    expect(stored.bundle).toEqual(sortedById(unit.bundle));
    expect(stored.bundle.relations.describes![0].relations.relatesTo!.map((point) => point.id)).toEqual([
      'u1.eng.ap0',
      'u1.eng.ap1',
    ]);
    expect(stored.hash).toBe('hash-u1');
    expect(stored.updated).toBe('2024-05-01T00:00:00.000Z');
  });

  it('groups item edges by type, targets sorted and once each', () => {
    const stored = storedItem({
      ...asStored(flattenItem(unit), '2024-05-01T00:00:00.000Z'),
      edges: [
        { type: 'hasLinkTarget', target: 'c' },
        { type: 'heldBy', target: 'r1' },
        { type: 'hasLinkTarget', target: 'a' },
        { type: 'hasLinkTarget', target: 'c' },
      ],
    });
    expect(stored.edges).toEqual({ hasLinkTarget: ['a', 'c'], heldBy: ['r1'] });
  });
});

describe('records', () => {
  it('adds the id and type to the props, and refuses props that would overwrite them', () => {
    expect(recordProps('log1', 'ImportLog', { user: 'alice' })).toEqual({
      user: 'alice',
      id: 'log1',
      _type: 'ImportLog',
    });
    expect(() => recordProps('log1', 'ImportLog', { id: 'other' })).toThrow('Property "id" is reserved');
  });

  it('reads back the record written', () => {
    const props = { user: 'alice', count: 3, ok: true, items: ['a', 'b'] };
    const node = { elementId: 'record', properties: recordProps('log1', 'ImportLog', props) };
    expect(recordFromNode(node)).toEqual({ id: 'log1', type: 'ImportLog', props });
  });
});
