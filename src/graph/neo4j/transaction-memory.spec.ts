import { Driver } from 'neo4j-driver';
import { transactionMemoryLimit } from './transaction-memory';

/** A driver that must not be used: a configured limit needs no server. */
const unused = new Proxy({} as Driver, {
  get: () => {
    throw new Error('the driver was used');
  },
});

describe('transactionMemoryLimit', () => {
  it('is none when NEO4J_TRANSACTION_HEAP_MAX_MB is 0', async () => {
    expect(await transactionMemoryLimit(unused, 0)).toBeUndefined();
  });

  it('is the configured MiB, naming the service setting to raise', async () => {
    const limit = await transactionMemoryLimit(unused, 300);
    expect(limit).toMatchObject({ bytes: 300 * 1024 * 1024, setting: 'NEO4J_TRANSACTION_HEAP_MAX_MB' });
    expect(limit?.raise).toMatch(/NEO4J_TRANSACTION_HEAP_MAX_MB/);
  });
});
