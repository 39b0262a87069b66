import { WalkedIds } from '../import-logs/walked-ids';
import { jsonChunks } from './json-chunks';

describe('jsonChunks', () => {
  const values: [string, unknown][] = [
    ['an import log', { created: 2, created_keys: { 'a.xml': ['x', 'y'] }, errors: {}, message: null }],
    ['text that JSON escapes', { 'ke"y': 'line\nbreak "quoted" \\ \u2028 \u0000 ł ź 🗄' }],
    ['numbers and booleans', [0, -1.5, 1e21, NaN, Infinity, true, false, null]],
    ['what JSON leaves out or writes as null', { a: undefined, b: () => 1, c: [undefined, () => 1], d: 1 }],
    ['empty containers', { list: [], object: {}, nested: [[], [{}]] }],
    ['toJSON and boxed primitives', { when: new Date(0), boxed: [new String('s'), new Number(2)] }],
    ['a primitive', 'just text'],
  ];

  it.each(values)('writes %s as JSON.stringify does', (_name, value) => {
    expect([...jsonChunks(value)].join('')).toBe(JSON.stringify(value));
  });

  it('writes nothing for what JSON.stringify leaves undefined', () => {
    expect([...jsonChunks(undefined)]).toEqual([]);
  });

  it('cuts a long list into pieces of about the size asked for', () => {
    const ids = Array.from({ length: 10_000 }, (_, index) => `nl-r1-unit-${index}`);
    const answer = { created: ids.length, created_keys: { '-': ids } };
    const chunks = [...jsonChunks(answer, 4096)];
    expect(chunks.join('')).toBe(JSON.stringify(answer));
    // A chunk ends once it reaches the size, which it passes by one piece at most.
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(4096);
      expect(chunk.length).toBeLessThan(4096 + 64);
    }
    expect(chunks.at(-1)!.length).toBeLessThan(4096 + 64);
  });

  it('writes a walked list as JSON.stringify does, walking it as it goes rather than whole', () => {
    const ids = Array.from({ length: 10_000 }, (_, index) => `nl-r1-unit-${index}"é`);
    let walked = 0;
    const list = new WalkedIds(ids.length, function* () {
      for (const id of ids) {
        walked++;
        yield id;
      }
    });
    const answer = { created_keys: { '-': list, empty: new WalkedIds(0, () => []) } };
    const chunks = jsonChunks(answer, 4096);
    chunks.next();
    expect(walked).toBeLessThan(ids.length / 10);
    expect([...jsonChunks(answer)].join('')).toBe(JSON.stringify(answer));
    expect(JSON.stringify(answer)).toBe(JSON.stringify({ created_keys: { '-': ids, empty: [] } }));
  });
});
