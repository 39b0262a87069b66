import { auth, driver as createDriver, Driver, int, Neo4jError, session as accessModes } from 'neo4j-driver';
import { GraphReader, GraphStore, GraphWriter, WriteOptions } from '../graph-store';
import { SerialQueue } from '../sqlite/serial-queue';
import { AWAIT_INDEXES, SCHEMA_STATEMENTS, TAKE_WRITE_LOCK } from './cypher';
import { Neo4jGraphReader, Neo4jGraphWriter } from './neo4j-graph-transaction';
import { statementRunner } from './statement-runner';

export interface Neo4jConnectOptions {
  url: string;
  user: string;
  password: string;
}

/** How long `connect` waits for the indexes it created to come online. */
const INDEX_WAIT_SECONDS = 300;

/**
 * The `GraphStore` port on Neo4j 5.26 LTS / 2025.x. Each write is one explicit transaction, and
 * writers queue for it: those of this process here, those of every process at the lock node that
 * each write transaction takes first (`TAKE_WRITE_LOCK`). Reads are read transactions, which
 * Neo4j never blocks. The statements it sends are all in `cypher.ts`.
 */
export class Neo4jGraphStore extends GraphStore {
  private readonly writers = new SerialQueue();

  private constructor(private readonly driver: Driver) {
    super();
  }

  /** Connects, checks the server answers, and creates the constraints and indexes if missing. */
  static async connect(options: Neo4jConnectOptions): Promise<Neo4jGraphStore> {
    const driver = createDriver(options.url, auth.basic(options.user, options.password), {
      disableLosslessIntegers: true,
    });
    try {
      await driver.verifyConnectivity();
      await createSchema(driver);
    } catch (error) {
      await driver.close();
      throw error;
    }
    return new Neo4jGraphStore(driver);
  }

  async read<T>(work: (tx: GraphReader) => Promise<T>): Promise<T> {
    const session = this.driver.session({ defaultAccessMode: accessModes.READ });
    try {
      return await session.executeRead((tx) => work(new Neo4jGraphReader(statementRunner(tx))));
    } finally {
      await session.close();
    }
  }

  write<T>(work: (tx: GraphWriter) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    if (options.apart) return this.writeNow(work, options);
    return this.writers.run(() => this.writeNow(work, options));
  }

  queuedWrites(): number {
    return this.writers.length;
  }

  async ping(): Promise<void> {
    await this.driver.verifyConnectivity();
  }

  async close(): Promise<void> {
    await this.driver.close();
  }

  private async writeNow<T>(work: (tx: GraphWriter) => Promise<T>, options: WriteOptions): Promise<T> {
    const commit = options.commit !== false;
    const session = this.driver.session({ defaultAccessMode: accessModes.WRITE });
    try {
      const transaction = session.beginTransaction();
      let result: T;
      try {
        const run = statementRunner(transaction);
        if (!options.apart) await run(TAKE_WRITE_LOCK, { now: new Date().toISOString() });
        result = await work(new Neo4jGraphWriter(run));
        if (commit) await options.beforeCommit?.();
      } catch (error) {
        // A failed statement has already ended the transaction; rolling back then is a no-op.
        await transaction.rollback().catch(() => undefined);
        throw explained(error);
      }
      await (commit ? transaction.commit() : transaction.rollback());
      return result;
    } finally {
      await session.close();
    }
  }
}

/** Neo4j's codes for a transaction refused memory: by its own limit, or by the server's pool. */
const OUT_OF_MEMORY_CODES = [
  'Neo.ClientError.General.TransactionOutOfMemoryError',
  'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
];

/** A write's error, said in the service's terms where Neo4j's own would puzzle a user. */
export function explained(error: unknown): unknown {
  if (!(error instanceof Neo4jError) || !OUT_OF_MEMORY_CODES.includes(error.code)) return error;
  return new Error(
    'The Neo4j server refused the write transaction more memory, and nothing of it was written: a ' +
      "write (an import) holds all its changes in the server's heap until it commits. Give the server " +
      'a larger heap (server.memory.heap.max_size; NEO4J_HEAP for npm run neo4j:start) or write less ' +
      `at once. Neo4j said: ${error.message}`,
    { cause: error },
  );
}

async function createSchema(driver: Driver): Promise<void> {
  const session = driver.session({ defaultAccessMode: accessModes.WRITE });
  try {
    // Schema commands cannot share a transaction with each other or with data: one each.
    const run = statementRunner(session);
    for (const statement of SCHEMA_STATEMENTS) await run(statement, {});
    await run(AWAIT_INDEXES, { timeoutSeconds: int(INDEX_WAIT_SECONDS) });
  } finally {
    await session.close();
  }
}
