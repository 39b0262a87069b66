import { Neo4jError } from 'neo4j-driver';
import { explained } from './neo4j-graph-store';

describe('explained', () => {
  it("turns Neo4j's transaction memory errors into one that says what happened and what to do", () => {
    const refused = new Neo4jError(
      'The allocation of an extra 2.0 MiB would use more than the limit 100.0 MiB.',
      'Neo.ClientError.General.TransactionOutOfMemoryError',
      '51N73',
      'transaction memory limit reached',
    );
    const error = explained(refused) as Error;
    expect(error.message).toMatch(/nothing of it was written.*larger heap.*limit 100\.0 MiB/);
    expect(error.cause).toBe(refused);
  });

  it('leaves other errors as they are', () => {
    const other = new Neo4jError('Deadlock', 'Neo.TransientError.Transaction.DeadlockDetected', '50N05', 'x');
    expect(explained(other)).toBe(other);
    const plain = new Error('plain');
    expect(explained(plain)).toBe(plain);
  });
});
