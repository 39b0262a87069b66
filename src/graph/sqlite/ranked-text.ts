/**
 * Text search ranked in JavaScript from each query phrase's matches, kept per store version.
 *
 * FTS5's bm25 of a query of several phrases is the sum, in phrase order, of what each phrase
 * scores alone: each phrase's IDF depends on that phrase only, and the document length on the
 * document only. So a phrase's matching rows with their scores, read once from the index, answer
 * every query that holds the phrase, whatever else it holds: a query costs merging sorted lists
 * rather than FTS5 scoring every matching row again (some 0.5 µs each; a common word matches
 * nearly every unit). Sums are made in the order FTS5 makes them, so scores are equal to the bit.
 */

/** A phrase's matches: full-text rows ascending, each with its bm25 score (lower ranks first). */
export interface Postings {
  rows: Float64Array;
  scores: Float64Array;
}

/** Builds postings from `[row, score]` pairs read in row order. */
export function postingsOf(pairs: readonly (readonly [number, number])[]): Postings {
  const rows = new Float64Array(pairs.length);
  const scores = new Float64Array(pairs.length);
  pairs.forEach(([row, score], index) => {
    rows[index] = row;
    scores[index] = score;
  });
  return { rows, scores };
}

/**
 * The rows every phrase matches, among `within` (ascending) if given and those `keep` accepts, each
 * scored by the sum of its phrases' scores in phrase order (as FTS5 sums them).
 */
export function matchAll(
  phrases: readonly Postings[],
  options: { within?: Float64Array; keep?: (row: number) => boolean } = {},
): Postings {
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
      const at = seek(lists[l], row, cursors[l]);
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
export function leaders(matches: Postings, count: number): Leaders {
  if (matches.rows.length === 0 || count <= 0) return { rows: [], ranks: [] };
  const cutoff = lowest(matches.scores, Math.min(count, matches.scores.length));
  const kept: number[] = [];
  for (let i = 0; i < matches.scores.length; i++) if (matches.scores[i] <= cutoff) kept.push(i);
  kept.sort((a, b) => matches.scores[a] - matches.scores[b]);
  const ranks: number[] = [];
  kept.forEach((index, position) => {
    const tied = position > 0 && matches.scores[index] === matches.scores[kept[position - 1]];
    ranks.push(tied ? ranks[position - 1] : position);
  });
  return { rows: kept.map((index) => matches.rows[index]), ranks };
}

/**
 * The first `count` of `leaders` by rank, then by where their items come in id order:
 * `positionOf(row)`, or -1 for a row that no item has, which is left out as the search SQL's join
 * with the items leaves it out. Ties are many (equal texts score equally) and mostly fall beyond
 * `count`: ordering them by position spares the store looking up every tied item's id.
 */
export function firstInOrder(leaders: Leaders, positionOf: (row: number) => number, count: number): number[] {
  const placed: { row: number; rank: number; position: number }[] = [];
  leaders.rows.forEach((row, index) => {
    const position = positionOf(row);
    if (position >= 0) placed.push({ row, rank: leaders.ranks[index], position });
  });
  placed.sort((a, b) => a.rank - b.rank || a.position - b.position);
  return placed.slice(0, count).map(({ row }) => row);
}

/** The `k`-th lowest value (1-based) of `values`, by quickselect on a copy. */
export function lowest(values: Float64Array, k: number): number {
  const copy = Float64Array.from(values);
  const target = k - 1;
  let left = 0;
  let right = copy.length - 1;
  while (left < right) {
    const pivot = copy[(left + right) >>> 1];
    let i = left;
    let j = right;
    while (i <= j) {
      while (copy[i] < pivot) i++;
      while (copy[j] > pivot) j--;
      if (i <= j) {
        const swap = copy[i];
        copy[i++] = copy[j];
        copy[j--] = swap;
      }
    }
    if (target <= j) right = j;
    else if (target >= i) left = i;
    else return copy[target];
  }
  return copy[target];
}
