import { randomUUID } from 'node:crypto';
import { auth, driver as createDriver, Driver, int, session as accessModes } from 'neo4j-driver';
import { GraphReader, GraphStore, GraphWriter, WriteOptions } from '../graph-store';
import { SerialQueue } from '../serial-queue';
import { AWAIT_INDEXES, SCHEMA_STATEMENTS, TAKE_WRITE_LOCK } from './cypher';
import { explained, unavailable } from './neo4j-errors';
import { Neo4jGraphReader } from './neo4j-graph-reader';
import { Neo4jGraphWriter } from './neo4j-graph-transaction';
import { statementRunner } from './statement-runner';
import { checkTransactionMemory, TransactionMemoryLimit, transactionMemoryLimit } from './transaction-memory';

export interface Neo4jConnectOptions {
  url: string;
  user: string;
  password: string;
  /**
   * The most heap, in MiB, one write transaction may take by Neo4j's estimate before the service
   * refuses it (`NEO4J_TRANSACTION_HEAP_MAX_MB`); 0: no limit; unset: a share of the server's heap.
   */
  transactionHeapMaxMiB?: number;
}

/** How long `connect` waits for the indexes it created to come online. */
const INDEX_WAIT_SECONDS = 300;

/**
 * The driver's waits, bounded so that a server gone away fails a request within seconds (an import
 * answers 503, readiness says so) rather than after the driver's defaults of a minute and more,
 * and so that shutting down is not held by connections that will never come.
 */
const DRIVER_TIMEOUTS = {
  connectionTimeout: 5_000,
  connectionAcquisitionTimeout: 10_000,
  maxTransactionRetryTime: 5_000,
};
/** How long `close` waits for the driver to close its connections before it lets them go. */
const CLOSE_TIMEOUT_MS = 3_000;

/**
 * The `GraphStore` port on Neo4j 5.26 LTS / 2025.x. Each write is one explicit transaction, and
 * writers queue for it: those of this process here, those of every process at the lock node that
 * each write transaction takes first (`TAKE_WRITE_LOCK`). Reads are read transactions, which
 * Neo4j never blocks. The statements it sends are all in `cypher.ts`.
 */
export class Neo4jGraphStore extends GraphStore {
  private readonly writers = new SerialQueue();
  /** What this process's write transactions changed, by statement: Neo4j's counters, summed. */
  private readonly updates = new Map<string, Record<string, number>>();

  private constructor(
    private readonly driver: Driver,
    private readonly url: string,
    private readonly memoryLimit: TransactionMemoryLimit | undefined,
  ) {
    super();
  }

  /** Connects, checks the server answers, and creates the constraints and indexes if missing. */
  static async connect(options: Neo4jConnectOptions): Promise<Neo4jGraphStore> {
    const driver = createDriver(options.url, auth.basic(options.user, options.password), {
      disableLosslessIntegers: true,
      ...DRIVER_TIMEOUTS,
    });
    let memoryLimit: TransactionMemoryLimit | undefined;
    try {
      await driver.verifyConnectivity();
      await createSchema(driver);
      memoryLimit = await transactionMemoryLimit(driver, options.transactionHeapMaxMiB);
    } catch (error) {
      await driver.close();
      throw error;
    }
    return new Neo4jGraphStore(driver, options.url, memoryLimit);
  }

  async read<T>(work: (tx: GraphReader) => Promise<T>): Promise<T> {
    const session = this.driver.session({ defaultAccessMode: accessModes.READ });
    try {
      return await session.executeRead((tx) => work(new Neo4jGraphReader(statementRunner(tx))));
    } catch (error) {
      throw unavailable(error);
    } finally {
      await session.close();
    }
  }

  write<T>(work: (tx: GraphWriter) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    if (options.apart) return this.writeNow(work, options);
    return this.writers.run(() => this.writeNow(work, options));
  }

  /**
   * What the statements of this process's write transactions changed so far (committed or not),
   * by statement name, as Neo4j counts it (`nodesCreated`, `propertiesSet`, …): what a write cost.
   */
  updatesSoFar(): Map<string, Record<string, number>> {
    return new Map([...this.updates].map(([name, counts]) => [name, { ...counts }]));
  }

  queuedWrites(): number {
    return this.writers.length;
  }

  async ping(): Promise<void> {
    await this.driver.verifyConnectivity().catch((error: unknown) => {
      throw new Error(`Neo4j at ${this.url} does not answer: ${(error as Error).message}`, { cause: error });
    });
  }

  /** Bounded: a server gone away leaves connections that would otherwise hold the shutdown. */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)));
    try {
      await Promise.race([this.driver.close(), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  private counted(name: string, updates: Record<string, number>): void {
    const sums = this.updates.get(name) ?? {};
    for (const [kind, count] of Object.entries(updates))
      if (count > 0) sums[kind] = (sums[kind] ?? 0) + count;
    this.updates.set(name, sums);
  }

  private async writeNow<T>(work: (tx: GraphWriter) => Promise<T>, options: WriteOptions): Promise<T> {
    const commit = options.commit !== false;
    const session = this.driver.session({ defaultAccessMode: accessModes.WRITE });
    try {
      // The marker finds this transaction among the server's, to watch its memory.
      const marker = randomUUID();
      const transaction = session.beginTransaction({ metadata: { writer: marker } });
      const limit = this.memoryLimit;
      const checkMemory = limit && (() => checkTransactionMemory(this.driver, marker, limit));
      let result: T;
      try {
        const run = statementRunner(transaction, (name, updates) => this.counted(name, updates));
        if (!options.apart) await run(TAKE_WRITE_LOCK, {});
        result = await work(new Neo4jGraphWriter(run, checkMemory));
        if (commit) await options.beforeCommit?.();
      } catch (error) {
        // A failed statement has already ended the transaction; rolling back then is a no-op.
        await transaction.rollback().catch(() => undefined);
        throw explained(error);
      }
      // A commit may be refused memory too (the last changes are checked then).
      await (commit ? transaction.commit() : transaction.rollback()).catch((error: unknown) => {
        throw explained(error);
      });
      return result;
    } finally {
      await session.close();
    }
  }
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
