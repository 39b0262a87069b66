import { Neo4jGraphStore } from '../../src/graph/neo4j/neo4j-graph-store';
import { emptyNeo4j, neo4jTestDatabase } from '../support/test-store';
import { describeEdgeOrderingContract } from './graph-store-ordering.contract';
import { describeChildrenContract } from './graph-store-children.contract';
import { describeListingContract } from './graph-store-listing.contract';
import { describePageContract } from './graph-store-page.contract';
import { describeSearchContract } from './graph-store-search.contract';
import { describeWriteOptionsContract } from './graph-store-write-options.contract';
import { describeGraphStoreContract } from './graph-store.contract';
import { unit } from './graph-store-fixtures';

/**
 * The port's contracts on Neo4j, against the server `NEO4J_TEST_URL` names. The database there is
 * emptied before every test: point it at a database kept for tests only.
 */
const options = neo4jTestDatabase();

if (options) {
  const { url } = options;
  const open = async () => {
    await emptyNeo4j(options);
    const store = await Neo4jGraphStore.connect(options);
    return { store, cleanup: () => store.close() };
  };
  describeGraphStoreContract(`Neo4j (${url})`, open);
  describeEdgeOrderingContract(`Neo4j (${url})`, open);
  describeSearchContract(`Neo4j (${url})`, open);
  describeWriteOptionsContract(`Neo4j (${url})`, open, true);
  describePageContract(`Neo4j (${url})`, open, true);
  describeListingContract(`Neo4j (${url})`, open);
  describeChildrenContract(`Neo4j (${url})`, open);

  describe('Neo4jGraphStore', () => {
    it('lets two stores (two processes) write the same items at once: the second waits, neither fails', async () => {
      await emptyNeo4j(options);
      const [first, second] = [
        await Neo4jGraphStore.connect(options),
        await Neo4jGraphStore.connect(options),
      ];
      try {
        const firstHoldsLock = deferred();
        const release = deferred();
        const firstWrite = first.write(async (tx) => {
          await tx.putItems([unit('a')]);
          firstHoldsLock.resolve();
          await release.promise;
          await tx.putItems([unit('b', { parent: { childOf: 'a' } })]);
        });
        await firstHoldsLock.promise;
        // Locked in the other order: without a lock taken first, the two would deadlock on a and b.
        let secondStarted = false;
        const later = (id: string) => unit(id, { descriptions: [{ lang: 'eng', name: `Later ${id}` }] });
        const secondWrite = second.write(async (tx) => {
          secondStarted = true;
          await tx.putItems([later('b')]);
          await tx.putItems([later('a')]);
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(secondStarted).toBe(false);
        release.resolve();
        await Promise.all([firstWrite, secondWrite]);
        const stored = await first.read((tx) => tx.getItems(['a', 'b']));
        expect(stored.get('a')!.bundle).toEqual(later('a').bundle);
        expect(stored.get('b')!.bundle).toEqual(later('b').bundle);
        expect(stored.get('b')!.edges).toEqual({ childOf: ['a'] });
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });
  });
} else {
  const reason =
    'NEO4J_TEST_URL is not set: npm run test:neo4j (part of npm test) runs them on a Neo4j server it ' +
    'starts, or set it (with NEO4J_TEST_USER and NEO4J_TEST_PASSWORD) to a Neo4j 5.26+ test database';
  describe('GraphStore contracts: Neo4j', () => {
    console.warn(`Skipped the GraphStore contract and edge ordering contract on Neo4j: ${reason}.`);
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
