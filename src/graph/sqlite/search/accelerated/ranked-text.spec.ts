import { firstInOrder, leaders, lowest, Matches, matchAll, Postings, PostingsBuilder } from './ranked-text';
import { textRow, typeCodeBits, typeCodes } from '../text-rows';

/** Postings of `[row, score]` pairs in row order. */
function postings(pairs: [number, number][]): Postings {
  const builder = new PostingsBuilder();
  for (const [row, score] of pairs) builder.add(row, score);
  return builder.build();
}
const plain = (matches: Matches) => ({ rows: [...matches.rows], scores: [...matches.scores] });

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('matchAll', () => {
  it('keeps the rows every phrase matches, scored by the sum of their scores', () => {
    const a = postings([
      [1, -1],
      [4, -2],
      [9, -3],
      [16, -4],
    ]);
    const b = postings([
      [4, -0.5],
      [5, -0.25],
      [16, -0.125],
    ]);
    expect(plain(matchAll([a, b]))).toEqual({ rows: [4, 16], scores: [-2.5, -4.125] });
    expect(plain(matchAll([a]))).toEqual({ rows: [1, 4, 9, 16], scores: [-1, -2, -3, -4] });
    expect(plain(matchAll([a, a]))).toEqual({ rows: [1, 4, 9, 16], scores: [-2, -4, -6, -8] });
    expect(plain(matchAll([a, postings([])]))).toEqual({ rows: [], scores: [] });
  });

  it('keeps only rows within a list and accepted by a test', () => {
    const a = postings([
      [1, -1],
      [4, -2],
      [9, -3],
      [16, -4],
    ]);
    expect(plain(matchAll([a], { within: Float64Array.from([0, 4, 9, 20]) }))).toEqual({
      rows: [4, 9],
      scores: [-2, -3],
    });
    expect(plain(matchAll([a], { keep: (row) => row % 2 === 0 }))).toEqual({
      rows: [4, 16],
      scores: [-2, -4],
    });
  });

  it("answers one phrase without a filter with that phrase's own postings", () => {
    const phrase = postings([
      [3, -1],
      [9, -2],
    ]);
    expect(matchAll([phrase])).toBe(phrase);
    expect(plain(matchAll([phrase], { keep: (row) => row > 5 }))).toEqual(plain(postings([[9, -2]])));
  });

  it('adds scores in phrase order, as FTS5 does', () => {
    // Floating-point sums depend on their order: these three sum differently either way round.
    const [x, y, z] = [0.1, 0.2, 0.3];
    expect(x + y + z).not.toBe(z + y + x);
    const lists = [x, y, z].map((score) => postings([[7, score]]));
    expect(matchAll(lists).scores[0]).toBe(0 + x + y + z);
    expect(matchAll([...lists].reverse()).scores[0]).toBe(0 + z + y + x);
  });

  it('finds the same matches as a plain set intersection, over long and short lists', () => {
    const next = random(11);
    const list = (density: number) => {
      const pairs: [number, number][] = [];
      for (let row = 0; row < 5_000; row++) if (next() < density) pairs.push([row, -next()]);
      return postings(pairs);
    };
    const [dense, sparse, middle] = [list(0.9), list(0.01), list(0.3)];
    const found = matchAll([dense, sparse, middle]);
    const expected = [...sparse.rows].filter((row) => dense.rows.includes(row) && middle.rows.includes(row));
    expect([...found.rows]).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });
});

describe('postings', () => {
  it('notes the item types among its rows, one bit a type code', () => {
    const rows = [textRow(1, 'Repository'), textRow(2, 'DocumentaryUnit'), textRow(3, 'DocumentaryUnit')];
    const { types } = postings(rows.map((row) => [row, -1]));
    expect(types).toBe(typeCodeBits(typeCodes(['Repository', 'DocumentaryUnit'])));
    expect(postings([]).types).toBe(0);
  });
});

describe('PostingsBuilder', () => {
  it('keeps every row and score in order as its arrays grow, and gives arrays of their length', () => {
    const builder = new PostingsBuilder();
    const rows = Array.from({ length: 5000 }, (_, index) => textRow(index + 1, 'DocumentaryUnit'));
    rows.forEach((row, index) => expect(builder.add(row, -index - 1)).toBe(index + 1));
    const built = builder.build();
    expect(Array.from(built.rows)).toEqual(rows);
    expect(Array.from(built.scores)).toEqual(rows.map((_, index) => -index - 1));
    expect(built.rows.buffer.byteLength).toBe(5000 * 8);
    expect(built.types).toBe(typeCodeBits(typeCodes(['DocumentaryUnit'])));
  });
});

describe('leaders', () => {
  it('keeps the lowest scores up to the count, ties at the cutoff included, ranked', () => {
    const matches = postings([
      [10, -1],
      [11, -3],
      [12, -2],
      [13, -3],
      [14, -2],
      [15, -0.5],
    ]);
    expect(leaders(matches, 1)).toEqual({ rows: [11, 13], ranks: [0, 0] });
    expect(leaders(matches, 3)).toEqual({ rows: [11, 13, 12, 14], ranks: [0, 0, 2, 2] });
    expect(leaders(matches, 10)).toEqual({ rows: [11, 13, 12, 14, 10, 15], ranks: [0, 0, 2, 2, 4, 5] });
    expect(leaders(postings([]), 10)).toEqual({ rows: [], ranks: [] });
  });
});

describe('firstInOrder', () => {
  // Row 10's item comes first in id order, then 14's, 12's, 11's, 13's; 15 has none.
  const positions = new Map([
    [10, 0],
    [14, 1],
    [12, 2],
    [11, 3],
    [13, 4],
  ]);
  const positionOf = (row: number) => positions.get(row) ?? -1;
  const ranked = { rows: [11, 13, 12, 14, 15, 10], ranks: [0, 0, 2, 2, 2, 5] };

  it('orders by rank, then by position, and keeps the first count', () => {
    expect(firstInOrder(ranked, positionOf, 10)).toEqual([11, 13, 14, 12, 10]);
    expect(firstInOrder(ranked, positionOf, 3)).toEqual([11, 13, 14]);
    expect(firstInOrder(ranked, positionOf, 0)).toEqual([]);
    expect(firstInOrder({ rows: [], ranks: [] }, positionOf, 3)).toEqual([]);
  });

  it('leaves out rows without a position rather than placing them', () => {
    expect(firstInOrder(ranked, positionOf, 5)).not.toContain(15);
    expect(firstInOrder({ rows: [15, 10], ranks: [0, 1] }, positionOf, 1)).toEqual([10]);
  });

  it('picks the same rows as sorting every leader, with many ties', () => {
    const next = random(5);
    const count = 100;
    for (let round = 0; round < 20; round++) {
      const scores = Float64Array.from({ length: 900 }, () => -Math.floor(next() * 12));
      const matches = { rows: Float64Array.from(scores, (_, row) => row), scores };
      // Items in an id order unrelated to their rows.
      const keys = Array.from(scores, () => next());
      const order = Array.from(scores, (_, row) => row).sort((a, b) => keys[a] - keys[b]);
      const position = new Map(order.map((row, at) => [row, at]));
      const expected = [...matches.rows]
        .sort((a, b) => scores[a] - scores[b] || position.get(a)! - position.get(b)!)
        .slice(0, count);
      expect(firstInOrder(leaders(matches, count), (row) => position.get(row)!, count)).toEqual(expected);
    }
  });
});

describe('lowest', () => {
  it('finds the k-th lowest value as a sort does, with many equal values', () => {
    const next = random(3);
    for (const size of [1, 2, 7, 100, 1_000]) {
      const values = Float64Array.from({ length: size }, () => Math.floor(next() * 20) - 10);
      const sorted = [...values].sort((a, b) => a - b);
      for (const k of [1, Math.ceil(size / 2), size]) expect(lowest(values, k)).toBe(sorted[k - 1]);
    }
  });
});
