import { Neo4jError } from 'neo4j-driver';
import { StoreUnavailableError, TransactionTooLargeError } from '../store-errors';
import { explained, MEMORY_ERROR_CODES } from './neo4j-errors';

const refusal = (code: string, message: string) => new Neo4jError(message, code, '50N42', 'memory');

describe('explained', () => {
  it.each([
    [
      'Neo.ClientError.General.TransactionOutOfMemoryError',
      'The allocation of an extra 2.0 MiB would use more than the limit 2.0 MiB. Currently using 1.5 MiB. db.memory.transaction.max threshold reached',
      'db.memory.transaction.max',
      '2.0 MiB',
      /NEO4J_TRANSACTION_MAX/,
    ],
    [
      'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
      'The allocation of an extra 2.0 MiB would use more than the limit 1.4 GiB. Currently using 1.4 GiB. dbms.memory.transaction.total.max threshold reached',
      'dbms.memory.transaction.total.max',
      '1.4 GiB',
      /NEO4J_TRANSACTION_TOTAL_MAX/,
    ],
    [
      'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
      'The allocation of an extra 2.0 MiB would use more than the limit 512.0 MiB. Currently using 511.0 MiB. db.memory.transaction.total.max threshold reached',
      'db.memory.transaction.total.max',
      '512.0 MiB',
      /^(?![\s\S]*NEO4J_)/,
    ],
    [
      // What Neo4j 5.26 answers when one transaction's own limit is reached.
      'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
      'The allocation of an extra 512 B would use more than the limit 4.0 MiB. Currently using 4.0 MiB. db.memory.transaction.max threshold reached',
      'db.memory.transaction.max',
      '4.0 MiB',
      /NEO4J_TRANSACTION_MAX/,
    ],
    [
      'Neo.TransientError.General.TransactionMemoryLimit',
      'There is not enough memory to perform the current task',
      'server.memory.off_heap.transaction_max_size',
      undefined,
      /NEO4J_TX_STATE_OFF_HEAP_MAX/,
    ],
    [
      'Neo.TransientError.General.OutOfMemoryError',
      'There is not enough memory to perform the current task',
      'server.memory.heap.max_size',
      undefined,
      /NEO4J_HEAP/,
    ],
  ])(
    'says of %s which limit refused the transaction and which setting raises it',
    (code, message, setting, limit, launcher) => {
      const error = explained(refusal(code, message));
      expect(error).toBeInstanceOf(TransactionTooLargeError);
      const tooLarge = error as TransactionTooLargeError;
      expect(tooLarge.setting).toBe(setting);
      expect(tooLarge.limit).toBe(limit);
      expect(tooLarge.message).toContain(`Raise ${setting} on the server`);
      expect(tooLarge.message).toMatch(/nothing of it was written/);
      expect(tooLarge.message).toMatch(launcher);
      if (limit !== undefined) expect(tooLarge.message).toContain(`a limit of ${limit}`);
      expect(tooLarge.cause).toBeInstanceOf(Neo4jError);
    },
  );

  it('knows every memory error code of Neo4j 5.26', () => {
    expect(MEMORY_ERROR_CODES.sort()).toEqual([
      'Neo.ClientError.General.TransactionOutOfMemoryError',
      'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
      'Neo.TransientError.General.OutOfMemoryError',
      'Neo.TransientError.General.TransactionMemoryLimit',
    ]);
  });

  it('says a server that does not answer is unavailable', () => {
    for (const error of [
      new Neo4jError('Failed to connect to server', 'ServiceUnavailable', '08000', 'x'),
      new Neo4jError('Connection acquisition timed out in 5000 ms.', 'N/A', '50N42', 'x'),
      new Neo4jError(
        'The database is unavailable',
        'Neo.TransientError.General.DatabaseUnavailable',
        '08000',
        'x',
      ),
    ]) {
      const said = explained(error);
      expect(said).toBeInstanceOf(StoreUnavailableError);
      expect((said as Error).message).toMatch(/does not answer.*nothing was written/);
    }
  });

  it('leaves other errors as they are', () => {
    const other = new Neo4jError('Deadlock', 'Neo.TransientError.Transaction.DeadlockDetected', '50N05', 'x');
    expect(explained(other)).toBe(other);
    const plain = new Error('plain');
    expect(explained(plain)).toBe(plain);
  });
});
