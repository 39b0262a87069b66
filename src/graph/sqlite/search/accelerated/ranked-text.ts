import { typeBitOfTextRow } from '../text-rows';

/**
 * Text search ranked in JavaScript from each query phrase's matches, kept per store version.
 *
 * FTS5's bm25 of a query of several phrases is the sum, in phrase order, of what each phrase
 * scores alone: each phrase's IDF depends on that phrase only, and the document length on the
 * document only. So a phrase's matching rows with their scores, read once from the index, answer
 * every query that holds the phrase, whatever else it holds: a query costs merging sorted lists
 * rather than FTS5 scoring every matching row again (a common word matches nearly every unit).
 * Sums are made in the order FTS5 makes them, so scores are equal to the bit.
 */

/** Full-text rows ascending, each with its bm25 score (lower ranks first). */
export interface Matches {
  rows: Float64Array;
  scores: Float64Array;
}

/** A phrase's matches, with the item types among them: one bit a type code (`typeCodeBits`). */
export interface Postings extends Matches {
  types: number;
}

/**
 * Postings built as a phrase's rows are read, in row order: straight into typed arrays that grow by
 * doubling, since a list of `[row, score]` pairs costs several times the memory for a common word.
 */
export class PostingsBuilder {
  private rows = new Float64Array(1024);
  private scores = new Float64Array(1024);
  private types = 0;
  private count = 0;

  /** Adds a row and its score; gives the rows added so far. */
  add(row: number, score: number): number {
    if (this.count === this.rows.length) this.grow();
    this.rows[this.count] = row;
    this.scores[this.count] = score;
    this.types |= typeBitOfTextRow(row);
    return ++this.count;
  }

  /** The postings, in arrays of their own length. */
  build(): Postings {
    const { count } = this;
    return { rows: this.rows.slice(0, count), scores: this.scores.slice(0, count), types: this.types };
  }

  private grow(): void {
    const rows = new Float64Array(this.rows.length * 2);
    const scores = new Float64Array(this.rows.length * 2);
    rows.set(this.rows);
    scores.set(this.scores);
    this.rows = rows;
    this.scores = scores;
  }
}

/**
 * The rows every phrase matches, among `within` (ascending) if given and those `keep` accepts, each
 * scored by the sum of its phrases' scores in phrase order (as FTS5 sums them).
 */
export function matchAll(
  phrases: readonly Postings[],
  options: { within?: Float64Array; keep?: (row: number) => boolean } = {},
): Matches {
  // One phrase alone, unfiltered: its postings are the matches (they are only read, never changed).
  if (phrases.length === 1 && !options.within && !options.keep) return phrases[0];
  const lists = options.within
    ? [...phrases.map((list) => list.rows), options.within]
    : phrases.map((list) => list.rows);
  const driver = lists.reduce((shortest, list) => (list.length < shortest.length ? list : shortest));
  const cursors = new Int32Array(lists.length);
  const rows = new Float64Array(driver.length);
  const scores = new Float64Array(driver.length);
  let found = 0;
  next: for (let d = 0; d < driver.length; d++) {
    const row = driver[d];
    if (options.keep && !options.keep(row)) continue;
    for (let l = 0; l < lists.length; l++) {
      // The driver's own cursor is where the row is: no need to look for it.
      const at = lists[l] === driver ? d : seek(lists[l], row, cursors[l]);
      cursors[l] = at;
      if (lists[l][at] !== row) {
        if (at === lists[l].length) break next;
        continue next;
      }
    }
    let score = 0;
    for (let p = 0; p < phrases.length; p++) score += phrases[p].scores[cursors[p]];
    rows[found] = row;
    scores[found++] = score;
  }
  return { rows: rows.subarray(0, found), scores: scores.subarray(0, found) };
}

/** The first index from `from` on whose row is at least `row`: galloping, then binary search. */
function seek(list: Float64Array, row: number, from: number): number {
  let low = from;
  let step = 1;
  let high = from;
  while (high < list.length && list[high] < row) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  high = Math.min(high, list.length);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle] < row) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Rows that may rank among the first few, each with its score's rank (see `leaders`). */
export interface Leaders {
  rows: number[];
  ranks: number[];
}

/**
 * The matches that can rank among the first `count`: those scoring at most the `count`-th lowest
 * score, ties included (ties go by item id, which only the store knows). Each comes with its
 * score's rank among them, so that equal scores share a rank: the store orders by rank, then id.
 */
export function leaders(matches: Matches, count: number): Leaders {
  if (matches.rows.length === 0 || count <= 0) return { rows: [], ranks: [] };
  const { scores } = matches;
  const cutoff = lowest(scores, Math.min(count, scores.length));
  // Fewer than `count` score below the cutoff: only they are sorted. The ties at the cutoff, all
  // of one rank, may be most of the matches (equal texts score equally).
  const below: number[] = [];
  const tied: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    if (scores[i] < cutoff) below.push(i);
    else if (scores[i] === cutoff) tied.push(i);
  }
  below.sort((a, b) => scores[a] - scores[b]);
  const ranks: number[] = [];
  below.forEach((index, position) => {
    const isTie = position > 0 && scores[index] === scores[below[position - 1]];
    ranks.push(isTie ? ranks[position - 1] : position);
  });
  for (let i = 0; i < tied.length; i++) ranks.push(below.length);
  return { rows: [...below, ...tied].map((index) => matches.rows[index]), ranks };
}

/**
 * The first `count` of `leaders` by rank, then by where their items come in id order:
 * `positionOf(row)`, or -1 for a row that no item has, which is left out as the search SQL's join
 * with the items leaves it out. Ties are many (equal texts score equally) and mostly fall beyond
 * `count`: ordering them by position spares the store looking up every tied item's id, and of the
 * rank that runs past `count` only the rows it needs are sorted.
 */
export function firstInOrder(leaders: Leaders, positionOf: (row: number) => number, count: number): number[] {
  const chosen: number[] = [];
  for (let start = 0; start < leaders.rows.length && chosen.length < count;) {
    let end = start + 1;
    while (end < leaders.rows.length && leaders.ranks[end] === leaders.ranks[start]) end++;
    chosen.push(...firstByPosition(leaders.rows.slice(start, end), positionOf, count - chosen.length));
    start = end;
  }
  return chosen;
}

/** The first `count` of `rows` by position, leaving out rows without one. */
function firstByPosition(rows: number[], positionOf: (row: number) => number, count: number): number[] {
  const placed: { row: number; position: number }[] = [];
  const positions = new Float64Array(rows.length);
  let placedCount = 0;
  for (const row of rows) {
    const position = positionOf(row);
    if (position >= 0) positions[placedCount++] = position;
  }
  // Positions are distinct: the `count`-th lowest bounds exactly the rows wanted.
  const last = placedCount <= count ? Infinity : lowest(positions.subarray(0, placedCount), count);
  for (const row of rows) {
    const position = positionOf(row);
    if (position >= 0 && position <= last) placed.push({ row, position });
  }
  return placed.sort((a, b) => a.position - b.position).map(({ row }) => row);
}

/**
 * The `k`-th lowest value (1-based) of `values`: the greatest of the `k` lowest seen, kept in a
 * max-heap in one pass. Past the first few thousand values most are above the heap's top and cost
 * one comparison; a quickselect would copy and shuffle all of them.
 */
export function lowest(values: Float64Array, k: number): number {
  const heap = new Float64Array(k);
  let size = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (size < k) {
      heap[size] = value;
      siftUp(heap, size++);
    } else if (value < heap[0]) {
      heap[0] = value;
      siftDown(heap, 0);
    }
  }
  return heap[0];
}

/** Moves the value at `index` of a max-heap up to its place. */
function siftUp(heap: Float64Array, index: number): void {
  for (let child = index; child > 0;) {
    const parent = (child - 1) >> 1;
    if (heap[parent] >= heap[child]) return;
    swap(heap, parent, child);
    child = parent;
  }
}

/** Moves the value at `index` of a full max-heap down to its place. */
function siftDown(heap: Float64Array, index: number): void {
  for (let parent = index; ;) {
    const left = 2 * parent + 1;
    let largest = parent;
    if (left < heap.length && heap[left] > heap[largest]) largest = left;
    if (left + 1 < heap.length && heap[left + 1] > heap[largest]) largest = left + 1;
    if (largest === parent) return;
    swap(heap, parent, largest);
    parent = largest;
  }
}

function swap(values: Float64Array, a: number, b: number): void {
  const value = values[a];
  values[a] = values[b];
  values[b] = value;
}
