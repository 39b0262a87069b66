import { Neo4jError } from 'neo4j-driver';
import { StoreUnavailableError, TransactionTooLargeError } from '../store-errors';

/**
 * Each of Neo4j's codes for a transaction refused memory, with the setting that bounds it. A pool's
 * message names the setting of the pool that ran out (one transaction's own limit is a pool too),
 * which wins.
 */
const MEMORY_LIMITS: Readonly<Record<string, string>> = {
  'Neo.ClientError.General.TransactionOutOfMemoryError': 'db.memory.transaction.max',
  'Neo.TransientError.General.MemoryPoolOutOfMemoryError': 'dbms.memory.transaction.total.max',
  'Neo.TransientError.General.TransactionMemoryLimit': 'server.memory.off_heap.transaction_max_size',
  'Neo.TransientError.General.OutOfMemoryError': 'server.memory.heap.max_size',
};

export const MEMORY_ERROR_CODES = Object.keys(MEMORY_LIMITS);

/** The environment variables of this project's launcher (`npm run neo4j:start`) that set them. */
const LAUNCHER_SETTINGS: Readonly<Record<string, string>> = {
  'db.memory.transaction.max': 'NEO4J_TRANSACTION_MAX',
  'dbms.memory.transaction.total.max': 'NEO4J_TRANSACTION_TOTAL_MAX',
  'server.memory.off_heap.transaction_max_size': 'NEO4J_TX_STATE_OFF_HEAP_MAX',
  'server.memory.heap.max_size': 'NEO4J_HEAP',
};

/** Codes of a connection lost or never made, or of a database not serving: down or unreachable. */
const UNAVAILABLE_CODES = [
  'ServiceUnavailable',
  'SessionExpired',
  'Neo.TransientError.General.DatabaseUnavailable',
];
/** The driver's own error when no connection came in time, which carries no code of its own. */
const NO_CONNECTION_IN_TIME = /^Connection acquisition timed out/;

/** The setting a pool's message names ("… dbms.memory.transaction.total.max threshold reached"). */
const THRESHOLD = /([a-z_]+(?:\.[a-z_]+)+) threshold reached/;
/** The limit a memory message states ("… would use more than the limit 1.4 GiB."). */
const LIMIT = /the limit (\d+(?:\.\d+)? ?[KMGT]?i?B)/;

/**
 * A write's error, said in the service's terms where Neo4j's own would puzzle a user: a refusal of
 * memory becomes a `TransactionTooLargeError` naming the limit and the setting to raise, a lost
 * server a `StoreUnavailableError`; anything else is left as it is.
 */
export function explained(error: unknown): unknown {
  if (!(error instanceof Neo4jError)) return error;
  const known = MEMORY_LIMITS[error.code];
  if (known !== undefined) {
    const setting = THRESHOLD.exec(error.message)?.[1] ?? known;
    const limit = LIMIT.exec(error.message)?.[1];
    const launcher =
      LAUNCHER_SETTINGS[setting] === undefined
        ? ''
        : `; ${LAUNCHER_SETTINGS[setting]} for npm run neo4j:start`;
    return new TransactionTooLargeError(
      `The import needs more memory than the Neo4j server allows one write transaction` +
        `${limit === undefined ? '' : ` (a limit of ${limit})`}, and nothing of it was written: an ` +
        `import is one transaction, whose changes the server holds until it commits. Raise ` +
        `${setting} on the server${launcher}, or import fewer units at once. Neo4j said: ${error.message}`,
      setting,
      limit,
      { cause: error },
    );
  }
  return unavailable(error);
}

/** A lost server as a `StoreUnavailableError`; any other error as it is. */
export function unavailable(error: unknown): unknown {
  if (!(error instanceof Neo4jError)) return error;
  if (UNAVAILABLE_CODES.includes(error.code) || NO_CONNECTION_IN_TIME.test(error.message)) {
    return new StoreUnavailableError(
      `The Neo4j store does not answer (${error.code}), and nothing was written: ${error.message}`,
      { cause: error },
    );
  }
  return error;
}
