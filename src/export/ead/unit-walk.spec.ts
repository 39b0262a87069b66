import type { SubtreeEntry } from '../../graph/graph-store';
import { ChildReader, Placed, siblingOrder, unitsBelow, WalkSizes } from './unit-walk';

/** A tree of `parent → children` as a store would list it: children in id order, paged. */
function storeOf(tree: Record<string, SubtreeEntry[]>): { read: ChildReader; reads: number[][] } {
  const reads: number[][] = [];
  const read: ChildReader = async (parentIds, after, limit) => {
    const listed = new Map(
      parentIds.map((parentId) => [
        parentId,
        [...(tree[parentId] ?? [])]
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .filter((entry) => after === undefined || entry.id > after)
          .slice(0, limit),
      ]),
    );
    reads.push([...listed.values()].map((entries) => entries.length));
    return listed;
  };
  return { read, reads };
}

function entry(parentId: string, localId: string, id = `${parentId}/${localId}`, type = 'DocumentaryUnit') {
  return { id, parentId, localId, type } as SubtreeEntry;
}

/** The order the writer wrote before it read in pages: the whole subtree, each level sorted. */
function wholeOrder(tree: Record<string, SubtreeEntry[]>, rootId: string, depth = 1): Placed[] {
  const units = (tree[rootId] ?? []).filter((child) => child.type === 'DocumentaryUnit').sort(siblingOrder);
  return units.flatMap((child) => [{ id: child.id, depth }, ...wholeOrder(tree, child.id, depth + 1)]);
}

async function walked(rootId: string, read: ChildReader, sizes?: WalkSizes): Promise<Placed[]> {
  const placed: Placed[] = [];
  for await (const unit of unitsBelow(rootId, read, sizes)) placed.push(unit);
  return placed;
}

/** A generated tree: `fanOut(depth)` children a unit, local ids that sort as numbers and by case. */
function generated(fanOut: (depth: number) => number, levels: number): Record<string, SubtreeEntry[]> {
  const tree: Record<string, SubtreeEntry[]> = {};
  const grow = (parentId: string, depth: number) => {
    if (depth > levels) return;
    const count = fanOut(depth);
    // Ids in another order than local ids; some local ids the same, told apart by id.
    tree[parentId] = Array.from({ length: count }, (_, index) =>
      entry(parentId, index % 7 === 3 ? 'same' : `c${(index * 37) % count}`, `${parentId}.${count - index}`),
    );
    for (const child of tree[parentId]) grow(child.id, depth + 1);
  };
  grow('root', 1);
  return tree;
}

const SMALL: WalkSizes = { window: 4, page: 3, parents: 5, perParent: 3, ahead: 12 };

describe('unitsBelow', () => {
  it('walks depth first, siblings by local id as numbers, then by id', async () => {
    const tree = {
      root: [entry('root', 'c10'), entry('root', 'c9'), entry('root', 'C2'), entry('root', 'c2')],
      'root/c9': [entry('root/c9', '2', 'z'), entry('root/c9', '2', 'a')],
    };
    const { read } = storeOf(tree);
    expect(await walked('root', read)).toEqual([
      { id: 'root/c2', depth: 1 },
      { id: 'root/C2', depth: 1 },
      { id: 'root/c9', depth: 1 },
      { id: 'a', depth: 2 },
      { id: 'z', depth: 2 },
      { id: 'root/c10', depth: 1 },
    ]);
  });

  it('leaves out what is no documentary unit, with everything below it', async () => {
    const tree = {
      root: [entry('root', 'a'), entry('root', 'b', 'root/b', 'VirtualUnit')],
      'root/b': [entry('root/b', 'x')],
    };
    expect(await walked('root', storeOf(tree).read)).toEqual([{ id: 'root/a', depth: 1 }]);
  });

  it('gives nothing below a unit without children', async () => {
    expect(await walked('root', storeOf({}).read)).toEqual([]);
  });

  it.each([
    ['narrow', () => 3, 4],
    ['wide at the top', (depth: number) => (depth === 1 ? 23 : 2), 3],
    ['wide below', (depth: number) => (depth === 2 ? 11 : 3), 3],
    ['wide everywhere', () => 9, 3],
  ])(
    'walks a %s tree read in small windows and pages as it would read it whole',
    async (_, fanOut, levels) => {
      const tree = generated(fanOut, levels);
      const { read, reads } = storeOf(tree);
      const expected = wholeOrder(tree, 'root');
      expect(await walked('root', read, SMALL)).toEqual(expected);
      expect(await walked('root', read)).toEqual(expected);
      // No read asks for more than a page of one unit's children or `perParent` of each of `parents`.
      for (const counts of reads) {
        expect(counts.length).toBeLessThanOrEqual(Math.max(SMALL.parents, 250));
        expect(Math.max(...counts)).toBeLessThanOrEqual(1000);
      }
    },
  );

  it('reads the children of many units in one read, not one read a unit', async () => {
    const tree = generated(() => 10, 4);
    const { read, reads } = storeOf(tree);
    const placed = await walked('root', read);
    expect(placed).toHaveLength(11_110);
    expect(reads.length).toBeLessThan(placed.length / 20);
  });
});
