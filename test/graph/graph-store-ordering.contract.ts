import { GraphReader, GraphStore, ItemWrite, SearchQuery } from '../../src/graph/graph-store';
import { ItemType } from '../../src/items/item-types';
import { describeGraphStoreContract } from './graph-store.contract';
import { unit } from './graph-store-fixtures';

type OpenStore = Parameters<typeof describeGraphStoreContract>[1];

/**
 * The port's contract for edges written before the item they name: an EAD stream gives a parent
 * after its children, a SKOS file may give a concept after the concepts that name it, and a sync
 * moves links onto units it writes later. Such an edge takes effect once its target is written;
 * reads see an edge only while both of its ends exist. `open` is that of `describeGraphStoreContract`.
 */
export function describeEdgeOrderingContract(name: string, open: OpenStore): void {
  describe(`GraphStore edge ordering contract: ${name}`, () => {
    let store: GraphStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      await put(item('r1', 'Repository'));
    });

    afterEach(async () => {
      await cleanup();
    });

    const put = (...items: ItemWrite[]) => store.write((tx) => tx.putItems(items));
    const read = <T>(work: (tx: GraphReader) => Promise<T>) => store.read(work);

    // r1 <- p <- c <- g, as an EAD stream gives them: children first.
    const grandchild = unit('g', {
      parent: { childOf: 'c' },
      descriptions: [{ lang: 'eng', name: 'Grandchild letters' }],
    });
    const child = unit('c', { parent: { childOf: 'p' } });
    const parent = unit('p', { parent: { heldBy: 'r1' } });

    describe('a child written before its parent', () => {
      it('is linked once the parent follows in the same putItems call', async () => {
        await store.write(async (tx) => {
          await tx.putItems([grandchild, child, parent]);
          await expectHierarchyLinked(tx);
        });
        await read(expectHierarchyLinked);
      });

      it('is linked once the parent follows in a later putItems call of the same transaction', async () => {
        await store.write(async (tx) => {
          await tx.putItems([grandchild]);
          await tx.putItems([child]);
          await expectParentMissing(tx);
          await tx.putItems([parent]);
          await expectHierarchyLinked(tx);
        });
        await read(expectHierarchyLinked);
      });

      it('is linked once the parent follows in a later transaction', async () => {
        await put(grandchild);
        await put(child);
        await read(expectParentMissing);
        await put(parent);
        await read(expectHierarchyLinked);
      });

      it('follows a rewrite that names another parent before either is written', async () => {
        await put(child);
        await put(unit('c', { parent: { childOf: 'q' } }));
        await put(parent, unit('q', { parent: { heldBy: 'r1' } }));
        await read(async (tx) => {
          expect((await tx.getItems(['c'])).get('c')!.edges.childOf).toEqual(['q']);
          expect(Object.fromEntries(await tx.countChildren(['p', 'q']))).toEqual({ p: 0, q: 1 });
          expect(await tx.incoming('p', 'childOf')).toEqual([]);
          expect(ids(await tx.search(scoped('p', 'descendants')))).toEqual([]);
          expect((await tx.ancestors(['c'])).get('c')!.map((ancestor) => ancestor.id)).toEqual(['q', 'r1']);
        });
      });
    });

    it('keeps an edge to an item never written out of every read', async () => {
      await put(
        unit('orphan', {
          parent: { childOf: 'ghost' },
          descriptions: [{ lang: 'eng', name: 'Orphan letters' }],
        }),
      );
      await read(async (tx) => {
        const counts = await tx.countChildren(['ghost', 'r1', 'orphan']);
        expect(['ghost', 'r1', 'orphan'].map((id) => counts.get(id) ?? 0)).toEqual([0, 0, 0]);
        for (const depth of ['children', 'descendants'] as const) {
          expect(await tx.search(scoped('ghost', depth))).toEqual({ total: 0, hits: [] });
          expect(await tx.search(scoped('ghost', depth, 'orphan'))).toEqual({ total: 0, hits: [] });
          expect(await tx.search(scoped('r1', depth))).toEqual({ total: 0, hits: [] });
        }
        expect(await tx.subtree('ghost')).toEqual([]);
        expect(await tx.incoming('ghost', 'childOf')).toEqual([]);
        expect((await tx.getItems(['orphan'])).get('orphan')!.edges.childOf ?? []).toEqual([]);
        expect((await tx.ancestors(['orphan'])).get('orphan') ?? []).toEqual([]);
        expect(ids(await tx.search({ text: 'orphan', offset: 0, limit: 10 }))).toEqual(['orphan']);
      });
    });

    describe('deleting', () => {
      it('a parent written after its child takes the link with it for good', async () => {
        await put(child);
        await put(parent);
        await store.write((tx) => tx.deleteItems(['p']));
        const expectChildUnlinked = async (tx: GraphReader) => {
          expect((await tx.getItems(['c'])).get('c')!.edges.childOf ?? []).toEqual([]);
          expect((await tx.ancestors(['c'])).get('c') ?? []).toEqual([]);
          expect(await tx.incoming('p', 'childOf')).toEqual([]);
          expect(await tx.subtree('p')).toEqual([]);
          expect((await tx.countChildren(['p'])).get('p') ?? 0).toBe(0);
        };
        await read(async (tx) => {
          await expectChildUnlinked(tx);
          expect(await tx.subtree('r1')).toEqual([]);
          expect((await tx.countChildren(['r1'])).get('r1')).toBe(0);
        });

        // Edges touching a deleted item go with it: writing the id again does not restore them.
        await put(parent);
        await read(expectChildUnlinked);
      });

      it('a child whose parent is not written yet takes its pending edge with it', async () => {
        await put(child);
        await store.write((tx) => tx.deleteItems(['c']));
        await put(parent);
        await read(async (tx) => {
          expect((await tx.countChildren(['p'])).get('p')).toBe(0);
          expect(await tx.incoming('p', 'childOf')).toEqual([]);
          expect(await tx.subtree('p')).toEqual([]);
        });
      });
    });

    describe('other edges', () => {
      it('links concepts to concepts written after them', async () => {
        await put(item('a', 'CvocConcept', { narrower: ['b'], related: ['b'] }));
        expect((await read((tx) => tx.getItems(['a']))).get('a')!.edges).toEqual({});
        await store.write(async (tx) => {
          await tx.putItems([item('b', 'CvocConcept')]);
          await tx.addEdges([{ from: 'b', type: 'related', to: 'c' }]);
          await tx.putItems([item('c', 'CvocConcept')]);
        });
        await read(async (tx) => {
          const stored = await tx.getItems(['a', 'b']);
          expect(stored.get('a')!.edges).toEqual({ narrower: ['b'], related: ['b'] });
          expect(stored.get('b')!.edges).toEqual({ related: ['c'] });
          expect(await tx.incoming('b', 'narrower')).toEqual(['a']);
          expect(await tx.incoming('c', 'related')).toEqual(['b']);
        });
      });

      it('moves links onto a unit that a sync writes after moving them', async () => {
        await put(unit('old'), item('l1', 'Link', { hasLinkTarget: ['old'] }));
        await store.write(async (tx) => {
          await tx.retargetEdges('old', 'new', 'hasLinkTarget');
          await tx.deleteItems(['old']);
          expect((await tx.getItems(['l1'])).get('l1')!.edges.hasLinkTarget ?? []).toEqual([]);
          await tx.putItems([unit('new')]);
        });
        await read(async (tx) => {
          expect((await tx.getItems(['l1'])).get('l1')!.edges.hasLinkTarget).toEqual(['new']);
          expect(await tx.incoming('new', 'hasLinkTarget')).toEqual(['l1']);
        });
      });

      it('moves edges that point at an item not written yet', async () => {
        await put(item('l1', 'Link', { hasLinkTarget: ['x'] }));
        await store.write(async (tx) => {
          await tx.retargetEdges('x', 'y', 'hasLinkTarget');
          await tx.putItems([unit('x'), unit('y')]);
        });
        await read(async (tx) => {
          expect((await tx.getItems(['l1'])).get('l1')!.edges.hasLinkTarget).toEqual(['y']);
          expect(await tx.incoming('x', 'hasLinkTarget')).toEqual([]);
          expect(await tx.incoming('y', 'hasLinkTarget')).toEqual(['l1']);
        });
      });
    });
  });
}

/** r1, c and g exist; p, the parent of c, does not. */
async function expectParentMissing(tx: GraphReader): Promise<void> {
  const stored = await tx.getItems(['c', 'g']);
  expect(stored.get('c')!.edges.childOf ?? []).toEqual([]);
  expect(stored.get('g')!.edges.childOf).toEqual(['c']);
  const chains = await tx.ancestors(['c', 'g']);
  expect(chains.get('c') ?? []).toEqual([]);
  expect(chains.get('g')!.map((ancestor) => ancestor.id)).toEqual(['c']);
  const counts = await tx.countChildren(['p', 'c', 'r1']);
  expect(['p', 'c', 'r1'].map((id) => counts.get(id) ?? 0)).toEqual([0, 1, 0]);
  expect(await tx.incoming('p', 'childOf')).toEqual([]);
  expect(await tx.subtree('p')).toEqual([]);
  expect(await tx.subtree('r1')).toEqual([]);
  expect(await tx.search(scoped('p', 'children'))).toEqual({ total: 0, hits: [] });
  expect(await tx.search(scoped('p', 'descendants'))).toEqual({ total: 0, hits: [] });
  expect(await tx.search(scoped('r1', 'descendants', 'grandchild'))).toEqual({ total: 0, hits: [] });
  expect(ids(await tx.search({ text: 'grandchild', offset: 0, limit: 10 }))).toEqual(['g']);
}

/** r1 <- p <- c <- g all exist and every read sees the chain. */
async function expectHierarchyLinked(tx: GraphReader): Promise<void> {
  const stored = await tx.getItems(['p', 'c', 'g']);
  expect(stored.get('c')!.edges.childOf).toEqual(['p']);
  expect(stored.get('g')!.edges.childOf).toEqual(['c']);
  expect((await tx.ancestors(['g'])).get('g')).toEqual([
    { id: 'c', type: 'DocumentaryUnit' },
    { id: 'p', type: 'DocumentaryUnit' },
    { id: 'r1', type: 'Repository' },
  ]);
  expect(Object.fromEntries(await tx.countChildren(['r1', 'p', 'c', 'g']))).toEqual({
    r1: 1,
    p: 1,
    c: 1,
    g: 0,
  });
  expect(await tx.incoming('p', 'childOf')).toEqual(['c']);
  expect((await tx.subtree('r1')).map((entry) => [entry.id, entry.parentId])).toEqual([
    ['p', 'r1'],
    ['c', 'p'],
    ['g', 'c'],
  ]);
  expect(ids(await tx.search(scoped('p', 'children')))).toEqual(['c']);
  expect(ids(await tx.search(scoped('p', 'descendants')))).toEqual(['c', 'g']);
  expect(ids(await tx.search(scoped('r1', 'descendants')))).toEqual(['c', 'g', 'p']);
  expect(ids(await tx.search(scoped('r1', 'descendants', 'grandchild')))).toEqual(['g']);
  expect(ids(await tx.search(scoped('c', 'children', 'grandchild')))).toEqual(['g']);
}

function item(id: string, type: ItemType, edges: ItemWrite['edges'] = {}): ItemWrite {
  return { bundle: { id, type, data: { identifier: id }, relations: {} }, hash: `hash-${id}`, edges };
}

function scoped(id: string, depth: 'children' | 'descendants', text?: string): SearchQuery {
  return { text, scope: { id, depth }, offset: 0, limit: 100 };
}

function ids(result: { hits: { id: string }[] }): string[] {
  return result.hits.map((hit) => hit.id);
}
