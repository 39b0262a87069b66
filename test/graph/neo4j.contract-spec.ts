import { Neo4jGraphStore } from '../../src/graph/neo4j/neo4j-graph-store';
import { emptyNeo4j, neo4jTestDatabase } from '../support/test-store';
import { describeEdgeOrderingContract } from './graph-store-ordering.contract';
import { describeGraphStoreContract } from './graph-store.contract';

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
} else {
  const reason =
    'NEO4J_TEST_URL is not set; set it (with NEO4J_TEST_USER and NEO4J_TEST_PASSWORD) to a Neo4j 5.26+ ' +
    'test database to run the GraphStore contracts on Neo4j';
  describe('GraphStore contracts: Neo4j', () => {
    console.warn(`Skipped the GraphStore contract and edge ordering contract on Neo4j: ${reason}.`);
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}
