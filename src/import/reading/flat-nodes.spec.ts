import { FlatNodeReader, FlatNodeWriter } from './flat-nodes';
import { RawNode } from '../building/raw-node';

function nodeOf(values: Record<string, string | string[]>): RawNode {
  const node = new RawNode();
  for (const [field, value] of Object.entries(values)) node.set(field, value);
  return node;
}

/** A node's fields and sub-nodes, in their order, as plain data. */
function contentOf(node: RawNode): unknown {
  return {
    values: [...node.values],
    subNodes: [...node.subNodes].map(([field, nodes]) => [field, nodes.map(contentOf)]),
  };
}

describe('FlatNodeWriter and FlatNodeReader', () => {
  it('carry a node, its lists and its sub-nodes at any depth, in their order', () => {
    const node = nodeOf({ name: 'Unit', languageOfMaterial: ['eng', 'deu'], single: ['one'] });
    const place = nodeOf({ placeAccessPoint: 'Łódź' });
    place.addSubNode('DatePeriod', nodeOf({ startDate: '1940' }));
    node.addSubNode('placeAccessPoint', place);
    node.addSubNode('placeAccessPoint', nodeOf({ placeAccessPoint: 'Paris' }));
    node.addSubNode('MaintenanceEvent', new RawNode());
    const flat = structuredClone(new FlatNodeWriter().write(node, ['head']));
    expect(flat[0]).toBe('head');
    expect(contentOf(new FlatNodeReader().read(flat, 1))).toEqual(contentOf(node));
  });

  it("send a field's name once, then its number, to the one reader that reads them in order", () => {
    const writer = new FlatNodeWriter();
    const first = writer.write(nodeOf({ name: 'A', scopeAndContent: 'x' }), []);
    const second = writer.write(nodeOf({ scopeAndContent: 'y', name: 'B' }), []);
    expect(first).toContain('scopeAndContent');
    expect(second).not.toContain('scopeAndContent');
    const reader = new FlatNodeReader();
    expect(reader.read(first, 0).values).toEqual(
      new Map([
        ['name', 'A'],
        ['scopeAndContent', 'x'],
      ]),
    );
    expect([...reader.read(second, 0).values]).toEqual([
      ['scopeAndContent', 'y'],
      ['name', 'B'],
    ]);
  });
});
