import { auth, driver as createDriver } from 'neo4j-driver';
import { DELETE_EVERYTHING } from '../../src/graph/neo4j/cypher';
import { Neo4jConnectOptions } from '../../src/graph/neo4j/neo4j-graph-store';

/**
 * Which store the HTTP end-to-end tests run on. By default each test app has its own temporary
 * SQLite file; with `TEST_STORE=neo4j` (what `npm run test:neo4j` sets) every app opens the Neo4j
 * database at `NEO4J_TEST_URL`, emptied when the app is created. Neo4j Community has one user
 * database, so that run goes one test file at a time (`--runInBand`).
 */
export const onNeo4j = process.env.TEST_STORE === 'neo4j';

/** The Neo4j test database (`NEO4J_TEST_URL`, `NEO4J_TEST_USER`, `NEO4J_TEST_PASSWORD`), if one is named. */
export function neo4jTestDatabase(): Neo4jConnectOptions | undefined {
  const url = process.env.NEO4J_TEST_URL?.trim();
  if (!url) {
    if (onNeo4j) throw new Error('TEST_STORE=neo4j needs NEO4J_TEST_URL, the Bolt URL of a test database');
    return undefined;
  }
  return {
    url,
    user: process.env.NEO4J_TEST_USER || 'neo4j',
    password: process.env.NEO4J_TEST_PASSWORD ?? '',
  };
}

/** Deletes every node of the test database (its constraints and indexes stay). */
export async function emptyNeo4j({ url, user, password }: Neo4jConnectOptions): Promise<void> {
  const driver = createDriver(url, auth.basic(user, password));
  // A plain session run is not retried: an unreachable server fails the test at once.
  const session = driver.session();
  try {
    await session.run(DELETE_EVERYTHING.text);
  } finally {
    await session.close();
    await driver.close();
  }
}

/**
 * `describe`, or on Neo4j `describe.skip` with `reason` printed: for the few tests that cannot
 * hold there, each listed with its reason in docs/neo4j.md.
 */
export function describeUnlessNeo4j(reason: string): jest.Describe {
  if (!onNeo4j) return describe;
  console.warn(`Skipped on Neo4j: ${reason}`);
  return describe.skip;
}
