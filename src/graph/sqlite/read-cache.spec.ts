import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  it('reuses a value read at the same version and recomputes at another', () => {
    const cache = new ReadCache(10);
    let computed = 0;
    const read = (version: number) => cache.get(version, 'key', () => `value ${++computed}`);
    expect(read(1)).toBe('value 1');
    expect(read(1)).toBe('value 1');
    expect(read(2)).toBe('value 2');
    expect(read(1)).toBe('value 3');
  });

  it('weighs lists by their length', () => {
    const cache = new ReadCache(8);
    let computed = 0;
    const read = (key: string, length: number) => cache.get(1, key, () => [++computed, ...Array(length - 1)]);
    read('small', 1);
    read('large', 3);
    expect(read('small', 1)[0]).toBe(1);
    read('larger', 4);
    expect(read('large', 3)[0]).toBe(4);
  });

  it('forgets the least recently used entry beyond its capacity', () => {
    const cache = new ReadCache(2);
    let computed = 0;
    const read = (key: string) => cache.get(1, key, () => ++computed);
    read('a');
    read('b');
    read('a');
    read('c');
    expect(read('a')).toBe(1);
    expect(read('b')).toBe(4);
  });
});
