import { auth, driver as createDriver } from 'neo4j-driver';
import { DELETE_EVERYTHING } from '../../src/graph/neo4j/cypher';
import { Neo4jConnectOptions, Neo4jGraphStore } from '../../src/graph/neo4j/neo4j-graph-store';
import { describeEdgeOrderingContract } from './graph-store-ordering.contract';
import { describeSearchContract } from './graph-store-search.contract';
import { describeGraphStoreContract } from './graph-store.contract';

/**
 * The port's contracts on Neo4j, against the server `NEO4J_TEST_URL` names. The database there is
 * emptied before every test: point it at a database kept for tests only.
 */
const url = process.env.NEO4J_TEST_URL?.trim();

if (url) {
  const options: Neo4jConnectOptions = {
    url,
    user: process.env.NEO4J_TEST_USER ?? 'neo4j',
    password: process.env.NEO4J_TEST_PASSWORD ?? '',
  };
  const open = async () => {
    await emptyDatabase(options);
    const store = await Neo4jGraphStore.connect(options);
    return { store, cleanup: () => store.close() };
  };
  describeGraphStoreContract(`Neo4j (${url})`, open);
  describeEdgeOrderingContract(`Neo4j (${url})`, open);
  describeSearchContract(`Neo4j (${url})`, open);
} else {
  const reason =
    'NEO4J_TEST_URL is not set; set it (with NEO4J_TEST_USER and NEO4J_TEST_PASSWORD) to a Neo4j 5.26+ ' +
    'test database to run the GraphStore contracts on Neo4j';
  describe('GraphStore contracts: Neo4j', () => {
    console.warn(`Skipped the GraphStore contract and edge ordering contract on Neo4j: ${reason}.`);
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}

async function emptyDatabase({ url: address, user, password }: Neo4jConnectOptions): Promise<void> {
  const driver = createDriver(address, auth.basic(user, password));
  // A plain session run is not retried: an unreachable server fails the test at once.
  const session = driver.session();
  try {
    await session.run(DELETE_EVERYTHING.text);
  } finally {
    await session.close();
    await driver.close();
  }
}
