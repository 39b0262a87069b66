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

  it('weighs an entry as told', () => {
    const cache = new ReadCache(5);
    let computed = 0;
    const read = (key: string) =>
      cache.get(
        1,
        key,
        () => ({ n: ++computed }),
        () => 3,
      );
    read('a');
    expect(read('a').n).toBe(1);
    read('b');
    expect(read('a').n).toBe(3);
  });

  it('looks entries up without computing, and keeps what is put', () => {
    const cache = new ReadCache(10);
    expect(cache.lookup(1, 'key')).toBeUndefined();
    cache.put(1, 'key', undefined, 1);
    expect(cache.lookup(1, 'key')).toEqual({ value: undefined });
    cache.put(1, 'key', 'value', 1);
    expect(cache.lookup(1, 'key')).toEqual({ value: 'value' });
    expect(cache.lookup(2, 'key')).toBeUndefined();
    expect(cache.lookup(1, 'key')).toBeUndefined();
  });

  it('keeps the most recently used entries through many evictions', () => {
    const cache = new ReadCache(100);
    cache.put(1, 'kept', 'kept', 1);
    for (let i = 0; i < 1000; i++) {
      cache.put(1, `entry ${i}`, i, 1);
      if (i % 50 === 0) expect(cache.lookup(1, 'kept')).toEqual({ value: 'kept' });
    }
    expect(cache.lookup(1, 'kept')).toEqual({ value: 'kept' });
    expect(cache.lookup(1, 'entry 901')).toEqual({ value: 901 });
    expect(cache.lookup(1, 'entry 900')).toBeUndefined();
  });

  it('renews a hit entry only once it is in the older half, where eviction could reach it soon', () => {
    const cache = new ReadCache(4);
    for (const key of ['a', 'b', 'c', 'd']) cache.put(1, key, key, 1);
    cache.lookup(1, 'c');
    cache.lookup(1, 'b');
    cache.put(1, 'e', 'e', 1);
    cache.put(1, 'f', 'f', 1);
    // b was in the older half and was renewed; c was not, and goes before d.
    expect(cache.lookup(1, 'b')).toEqual({ value: 'b' });
    expect(cache.lookup(1, 'c')).toBeUndefined();
    expect(cache.lookup(1, 'd')).toEqual({ value: 'd' });
  });

  it('lists its keys and weights, whatever their version, the most recently used first', () => {
    const cache = new ReadCache(10);
    cache.put(1, 'a', 'A', 1);
    cache.put(1, 'b', 'B', 2);
    cache.put(2, 'c', 'C', 3);
    expect(cache.recentEntries()).toEqual([
      ['c', 3],
      ['b', 2],
      ['a', 1],
    ]);
    // A hit in the older half renews the entry.
    cache.lookup(1, 'a');
    expect(cache.recentEntries().map(([key]) => key)).toEqual(['a', 'c', 'b']);
  });
});
