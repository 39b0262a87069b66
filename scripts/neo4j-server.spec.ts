import { defaultHeap, settingsFromEnv } from './neo4j-server';

const GIB = 1024 ** 3;

describe('the Neo4j launcher settings', () => {
  it('gives the server a quarter of the machine for its heap, between 2 and 8 GiB', () => {
    expect(defaultHeap(4 * GIB)).toBe('2g');
    expect(defaultHeap(16 * GIB)).toBe('4g');
    expect(defaultHeap(23.4 * GIB)).toBe('5g');
    expect(defaultHeap(64 * GIB)).toBe('8g');
  });

  it('takes NEO4J_HEAP over the default, and refuses a heap that is not a size', () => {
    expect(settingsFromEnv({}).heap).toBe(defaultHeap());
    expect(settingsFromEnv({ NEO4J_HEAP: '1536m' }).heap).toBe('1536m');
    expect(() => settingsFromEnv({ NEO4J_HEAP: 'lots' })).toThrow(/NEO4J_HEAP must be a size/);
  });
});
