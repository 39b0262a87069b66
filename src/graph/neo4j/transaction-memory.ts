import { Driver, session as accessModes } from 'neo4j-driver';
import { TransactionTooLargeError } from '../store-errors';
import { SERVER_HEAP, TRANSACTION_MEMORY } from './cypher';
import { statementRunner } from './statement-runner';

/**
 * The share of the Neo4j server's heap one write transaction may take by Neo4j's own estimate
 * while its statements run, before the service refuses it. Its commit then builds the store's
 * records and commands from those changes on the heap, about as much again, while Neo4j's pool
 * for all transactions counts heap and off-heap memory together and so refuses too late: a
 * transaction let grow near half the heap wedged the server in garbage collection at its commit.
 */
export const HEAP_SHARE = 0.3;

const MiB = 1024 * 1024;

/** How much memory the service lets one write transaction take, and where that figure comes from. */
export interface TransactionMemoryLimit {
  bytes: number;
  /** The setting that raises it: the service's own when set, else the server's heap. */
  setting: string;
  /** What to tell an operator about raising it. */
  raise: string;
}

/**
 * The limit `NEO4J_TRANSACTION_HEAP_MAX_MB` sets (0: none) or, unset, a share of the server's heap
 * as the server reports it; none when the server does not say (a user not allowed to ask).
 */
export async function transactionMemoryLimit(
  driver: Driver,
  configuredMiB: number | undefined,
): Promise<TransactionMemoryLimit | undefined> {
  if (configuredMiB === 0) return undefined;
  if (configuredMiB !== undefined) {
    return {
      bytes: configuredMiB * MiB,
      setting: 'NEO4J_TRANSACTION_HEAP_MAX_MB',
      raise: 'Raise NEO4J_TRANSACTION_HEAP_MAX_MB (the service setting), with the server heap to match',
    };
  }
  const heap = await serverHeap(driver);
  if (heap === undefined) return undefined;
  return {
    bytes: Math.floor(heap * HEAP_SHARE),
    setting: 'server.memory.heap.max_size',
    raise:
      `Raise server.memory.heap.max_size on the server (NEO4J_HEAP for npm run neo4j:start): ` +
      `the service lets one import take ${HEAP_SHARE * 100}% of it, or set NEO4J_TRANSACTION_HEAP_MAX_MB`,
  };
}

async function serverHeap(driver: Driver): Promise<number | undefined> {
  const session = driver.session({ defaultAccessMode: accessModes.READ });
  try {
    const [row] = await statementRunner(session)(SERVER_HEAP, {});
    const max = Number(row?.get('max'));
    return Number.isFinite(max) && max > 0 ? max : undefined;
  } catch {
    // dbms.queryJmx is an administrator's: without it the service cannot size the limit itself.
    return undefined;
  } finally {
    await session.close();
  }
}

/**
 * Refuses the write transaction marked `marker` (its metadata) once Neo4j estimates it holds more
 * heap than `limit`: a `TransactionTooLargeError`, which rolls it back and answers 413.
 */
export async function checkTransactionMemory(
  driver: Driver,
  marker: string,
  limit: TransactionMemoryLimit,
): Promise<void> {
  const session = driver.session({ defaultAccessMode: accessModes.READ });
  let heap: number;
  try {
    const [row] = await statementRunner(session)(TRANSACTION_MEMORY, { marker });
    heap = Number(row?.get('heap') ?? 0);
  } finally {
    await session.close();
  }
  if (heap <= limit.bytes) return;
  const limitText = `${(limit.bytes / MiB).toFixed(1)} MiB`;
  throw new TransactionTooLargeError(
    `The import needs more memory than the service lets one Neo4j write transaction take (a ` +
      `limit of ${limitText}; Neo4j estimates ${(heap / MiB).toFixed(1)} MiB so far), and nothing ` +
      `of it was written: an import is one transaction, whose changes the server holds until it ` +
      `commits. ${limit.raise}, or import fewer units at once.`,
    limit.setting,
    limitText,
  );
}
