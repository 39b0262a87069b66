import { unusualItem } from './testdata/test-readers';
import { ItemProduced } from '../formats/read-events';
import { FlatItemReader, FlatItemWriter } from './flat-items';

/** Every object's keys, in their order, at any depth (JSON leaves out keys whose value is undefined). */
function keysOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  return Object.entries(value).map(([key, inner]) => [key, keysOf(inner)]);
}

function expectSame(read: ItemProduced, item: ItemProduced): void {
  expect(read).toStrictEqual(item);
  expect(JSON.stringify(read)).toBe(JSON.stringify(item));
  expect(keysOf(read)).toEqual(keysOf(item));
  expect(Object.getPrototypeOf(read.write.bundle.data)).toBe(Object.prototype);
}

describe('FlatItemWriter and FlatItemReader', () => {
  it('carry an item exactly: values of every type, keys absent or undefined, in their order', () => {
    for (let variant = 0; variant < 12; variant++) {
      const item = unusualItem(`u${variant}`, 'doc.xml', variant);
      const flat = structuredClone(new FlatItemWriter().write(item, ['head']));
      expect(flat[0]).toBe('head');
      expectSame(new FlatItemReader().read(flat, 1), item);
    }
  });

  it('carry the variants it is tested with', () => {
    const items = [0, 1, 2, 3, 4].map((variant) => unusualItem('u', 'doc.xml', variant));
    expect(items.map((item) => ['hash' in item, item.hash])).toEqual([
      [false, undefined],
      [true, 'hash1'],
      [true, undefined],
      [true, undefined],
      [false, undefined],
    ]);
    expect(items.map(({ write }) => ['edges' in write, write.edges === undefined])).toEqual([
      [true, false],
      [true, true],
      [true, false],
      [false, true],
      [true, true],
    ]);
    expect(Object.keys(items[0].write.bundle.data)).toContain('__proto__');
  });

  it('carry many items in order, one list or several, sending each name once, to the one reader that reads them', () => {
    const items = Array.from({ length: 9 }, (_, index) => unusualItem(`u${index}`, `doc${index % 2}`, index));
    const writer = new FlatItemWriter();
    const lists: unknown[][] = [[], [], []];
    const starts = items.map((item, index) => {
      const list = lists[index % 3];
      const start = list.length;
      writer.write(item, list);
      return start;
    });
    expect(lists[0]).toContain('DocumentaryUnitDescription');
    expect(lists[1]).not.toContain('DocumentaryUnitDescription');
    expect(lists[1].filter((value) => value === 'doc1')).toHaveLength(1);
    const sent = lists.map((list) => structuredClone(list));
    const reader = new FlatItemReader();
    items.forEach((item, index) => expectSame(reader.read(sent[index % 3], starts[index]), item));
  });

  it('carry ancestors, those shared by siblings once, across lists', () => {
    const fonds = ['nl-r1', 'nl-r1-f'];
    const series = ['nl-r1', 'nl-r1-f', 'nl-r1-f-s'];
    const withAncestors = (id: string, ancestors?: readonly string[]): ItemProduced => {
      const item = unusualItem(id, 'doc.xml', 1);
      if (ancestors !== undefined) item.write.ancestors = ancestors;
      return item;
    };
    const items = [
      withAncestors('a', series),
      withAncestors('b', series),
      withAncestors('c'),
      withAncestors('d', series),
      withAncestors('e', fonds),
      withAncestors('f', fonds),
    ];
    const writer = new FlatItemWriter();
    const lists = items.map((item) => writer.write(item, []));
    // Each list of ids once, and again only when another came between.
    expect(lists.map((list) => list.filter((value) => value === 'nl-r1-f').length)).toEqual([
      1, 0, 0, 0, 1, 0,
    ]);
    const reader = new FlatItemReader();
    lists.forEach((list, index) => expectSame(reader.read(structuredClone(list), 0), items[index]));
  });
});
