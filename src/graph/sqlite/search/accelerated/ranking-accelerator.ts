import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { ITEM_TYPES, ItemType } from '../../../../items/item-types';
import { ItemRef, SearchQuery } from '../../../graph-store';
import { CHILD_EDGES } from '../../sql';
import { ftsPhrases, SoleTerm } from '../fts-query';
import { ReadSnapshot, SearchReads } from '../search-reads';
import { Subtree } from '../search-sql';
import { SELECT_TERM_COUNTS } from '../term-index';
import {
  ridOfTextRow,
  textRowOfCode,
  typeBit,
  typeBitOfTextRow,
  typeCodeBits,
  typeCodes,
} from '../text-rows';
import {
  ITEM_ORDER,
  ItemOrder,
  itemOrderWeight,
  postingsWeight,
  RankingCaches,
  readItemOrder,
  readPhrasePostings,
  RIDS_PER_POSTINGS_ROW,
  ROWS_PER_TURN,
  searchedPhrases,
  Statements,
} from './postings-reads';
import { firstInOrder, Leaders, leaders, matchAll, Postings } from './ranked-text';

/**
 * A text search ranks its matches once for its first pages (readers seldom go further), kept in
 * the cache: the pages within them are cut from it, and a search with fewer matches has its total.
 */
export const TOP_HITS = 100;
/** Along the update index: the most recently updated first, ties by id. */
const SELECT_RIDS_BY_UPDATE = 'SELECT rid FROM item ORDER BY updated DESC, id';
const UPDATED_ORDER = 'updated order';
/** Along the path index alone: the items' types come from the item order. */
const SELECT_SUBTREE_RIDS = 'SELECT rid FROM item WHERE path >= ? AND path < ?';
/** Along the edge and id indexes alone, likewise. */
const SELECT_CHILD_RIDS = `
  SELECT DISTINCT n.rid FROM edge e JOIN item n ON n.id = e.src
  WHERE e.dst = ? AND e.type IN (${CHILD_EDGES})`;
const SELECT_REFS_BY_RID = 'SELECT rid, id, type FROM item WHERE rid IN (SELECT value FROM json_each(?))';

/**
 * A text search's ranking: its total and the rids of its first hits. A page's ids are looked up
 * when it is asked for: most searches are read for their first page only.
 */
export interface RankedText {
  total: number;
  top: number[];
}

/**
 * The accelerated search ranking (`SEARCH_ACCELERATED`), used in read transactions only: a text
 * search is ranked in JavaScript from its phrases' matches with their bm25 scores, each read once
 * per store version (ranked-text.ts), and a search without text or scope lists the items of the
 * types asked for from the items' id order, read once per version too. It answers what the plain
 * search SQL answers (search-sql.ts); a query costs merging sorted lists rather than FTS5 scoring
 * every match again.
 */
export class RankingAccelerator {
  /** The reader's statements, for the reads a writer makes too (postings-reads.ts). */
  private readonly statements: Statements;

  constructor(
    private readonly reads: SearchReads & { readonly snapshot: ReadSnapshot },
    private readonly caches: RankingCaches,
  ) {
    this.statements = (sql, mode) => reads.statement(sql, mode);
  }

  /**
   * A text search's total and its first `TOP_HITS` hits, kept per store version: ranked from its
   * phrases' postings and the item order, which are read first, one after the other (they share
   * the reader's connection).
   */
  async rankedText(
    key: string,
    query: SearchQuery,
    subtree: Subtree | undefined,
    soleTerm: SoleTerm | undefined,
  ): Promise<RankedText> {
    const { cache, version } = this.reads.snapshot;
    const rankedKey = `${key}\0ranked`;
    const kept = cache.lookup<RankedText>(version, rankedKey);
    if (kept) return kept.value;
    const phrases: Postings[] = [];
    for (const phrase of ftsPhrases(query.text, soleTerm) ?? []) phrases.push(await this.postings(phrase));
    const order = await this.itemOrder();
    return cache.get(
      version,
      rankedKey,
      () => this.rankText(query, phrases, subtree, order),
      (value) => 1 + value.top.length,
    );
  }

  /**
   * The rids of the items of `types` (of every type when none), in id order or the most recently
   * updated first, kept per store version.
   */
  async ridsOfTypes(types: readonly string[] | undefined, listOrder: 'id' | 'updated'): Promise<Int32Array> {
    const order = await this.itemOrder();
    const listed = listOrder === 'updated' ? await this.updatedOrder() : order.rids;
    const kept = typeCodeBits(typeCodes(types?.length ? types : ITEM_TYPES));
    return this.reads.cached(
      `rids of types\0${listOrder}\0${kept}`,
      () => {
        const rids = new Int32Array(listed.length);
        let count = 0;
        for (const rid of listed) if ((typeBit(order.typeCodes[rid]) & kept) !== 0) rids[count++] = rid;
        return rids.subarray(0, count);
      },
      (rids) => 1 + Math.ceil(rids.length / 8),
    );
  }

  /** The items with these rids, in their order; kept per store version, one by one. */
  refsOfRids(rids: readonly number[]): ItemRef[] {
    const refs = this.reads.cachedEach(
      'ref',
      rids.map(String),
      (missing) => this.readRefs(missing),
      () => 1,
    );
    return rids.map((rid) => {
      const ref = refs.get(String(rid));
      // The item order was read at this store version: it places only items this snapshot holds.
      if (ref === undefined) throw new Error(`The item order places rid ${rid}, which no item has`);
      return ref;
    });
  }

  /**
   * Reads into the postings cache, before the searches that would read them first, the item order
   * (`readItemOrder`), then the phrases the cache held when it started (those searches asked for
   * at an earlier version, the most recently used first), then the postings of the index's
   * commonest terms, each as a search for the term asks for it (`ftsPhrases`): commonest first,
   * those matching at least `minRows` rows (a rarer term's first read is quick). All while their
   * rows stay within `maxRows`; it stops early once `stale()` says so. Returns the phrases it read
   * (or found kept).
   */
  async readAhead(
    maxRows: number,
    minRows: number,
    soleTerm: SoleTerm,
    stale: () => boolean,
  ): Promise<string[]> {
    const searched = searchedPhrases(this.caches);
    await this.itemOrder();
    const read = new Set<string>();
    let rows = 0;
    for (const [phrase] of searched) {
      if (stale() || rows >= maxRows) return [...read];
      rows += (await this.postings(phrase)).rows.length;
      read.add(phrase);
    }
    const common: [string, number][] = [];
    let listed = 0;
    for (const [term, count] of this.reads.statement(SELECT_TERM_COUNTS, 'raw').iterate() as Iterable<
      [string, number]
    >) {
      if (count >= minRows) common.push([term, count]);
      if (++listed % ROWS_PER_TURN === 0) await setImmediatePromise();
    }
    common.sort((a, b) => b[1] - a[1]);
    for (const [term, count] of common) {
      if (stale()) break;
      const phrase = ftsPhrases(term, soleTerm)?.[0];
      if (phrase === undefined || read.has(phrase) || rows + count > maxRows) continue;
      rows += count;
      await this.postings(phrase);
      read.add(phrase);
    }
    return [...read];
  }

  /**
   * A text search's total and its first `TOP_HITS` hits, from its phrases' postings, ties in the
   * id order (`readItemOrder`).
   */
  private rankText(
    query: SearchQuery,
    phrases: readonly Postings[],
    subtree: Subtree | undefined,
    order: ItemOrder,
  ): RankedText {
    const kept = query.types?.length ? typeCodeBits(typeCodes(query.types)) : undefined;
    // Rows of other types are left out, unless a phrase has none: nothing it matches has one then.
    const filtered = kept !== undefined && !phrases.some((phrase) => (phrase.types & ~kept) === 0);
    const matches = matchAll(phrases, {
      within: query.scope && this.scopeRows(query.scope, subtree, order),
      keep: filtered ? (row) => (typeBitOfTextRow(row) & kept) !== 0 : undefined,
    });
    return { total: matches.rows.length, top: this.inRankOrder(leaders(matches, TOP_HITS), order.positions) };
  }

  /**
   * The rids of the first `TOP_HITS` ranked rows' items, by rank and then id (`order`), as the
   * search SQL orders them.
   */
  private inRankOrder(ranked: Leaders, order: Int32Array): number[] {
    // A rid past the order's end has no item either.
    return firstInOrder(ranked, (row) => order[ridOfTextRow(row)] ?? -1, TOP_HITS).map(ridOfTextRow);
  }

  /** The items with these rids (as strings), by rid. */
  private readRefs(rids: readonly string[]): Map<string, ItemRef> {
    const rows = this.reads.statement(SELECT_REFS_BY_RID, 'raw').all(JSON.stringify(rids.map(Number)));
    return new Map(
      (rows as [number, string, ItemType][]).map(([rid, id, type]) => [String(rid), { id, type }]),
    );
  }

  /** A phrase's postings, kept per store version and weighed by their rows. */
  private postings(phrase: string): Postings | Promise<Postings> {
    return this.readOnce(phrase, () => this.readPostings(phrase), postingsWeight);
  }

  /** A phrase's matches from the index (`readPhrasePostings`). */
  private readPostings(phrase: string): Promise<Postings> {
    return readPhrasePostings(this.statements, phrase);
  }

  /** Each item's position in id order and type, by rid (`readItemOrder`), kept per store version. */
  private itemOrder(): ItemOrder | Promise<ItemOrder> {
    return this.readOnce(ITEM_ORDER, () => readItemOrder(this.statements), itemOrderWeight);
  }

  /**
   * The items' rids, the most recently updated first, ties by id, kept per store version: read
   * along its index, as the item order is.
   */
  private updatedOrder(): Int32Array | Promise<Int32Array> {
    return this.readOnce(
      UPDATED_ORDER,
      async () => {
        const rids: number[] = [];
        for (const rid of this.reads
          .statement(SELECT_RIDS_BY_UPDATE, 'pluck')
          .iterate() as Iterable<number>) {
          if (rids.push(rid) % ROWS_PER_TURN === 0) await setImmediatePromise();
        }
        return Int32Array.from(rids);
      },
      (rids) => 1 + Math.ceil(rids.length / RIDS_PER_POSTINGS_ROW),
    );
  }

  /**
   * A value of the postings cache, kept per store version and weighed by `weigh`. Reads of the same
   * key at the same version share one read of the index.
   */
  private readOnce<T>(key: string, read: () => Promise<T>, weigh: (value: T) => number): T | Promise<T> {
    const { postings: cache, reading, handedOver } = this.caches;
    const { version } = this.reads.snapshot;
    const kept = cache.lookup<T>(version, key);
    if (kept) return kept.value;
    // What was handed over for an older version is of no use any more.
    if (handedOver !== undefined && handedOver.version < version) this.caches.handedOver = undefined;
    const handed = handedOver?.version === version ? handedOver.entries.get(key) : undefined;
    if (handed !== undefined) {
      handedOver!.entries.delete(key);
      cache.put(version, key, handed.value, handed.weight);
      return handed.value as T;
    }
    const readingKey = `${version}\0${key}`;
    let pending = reading.get(readingKey) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = read()
        .then((value) => {
          cache.put(version, key, value, weigh(value));
          return value;
        })
        .finally(() => reading.delete(readingKey));
      reading.set(readingKey, pending);
    }
    return pending;
  }

  /**
   * The full-text rows of a search scope's items, ascending, kept per store version. The items' rids
   * are read along indexes alone, their types taken from the item `order`.
   */
  private scopeRows(
    scope: NonNullable<SearchQuery['scope']>,
    subtree: Subtree | undefined,
    order: ItemOrder,
  ): Float64Array {
    return this.reads.cached(
      `scope rows\0${scope.depth}\0${scope.id}`,
      () => {
        const rids = (
          scope.depth === 'children'
            ? this.reads.statement(SELECT_CHILD_RIDS, 'pluck').all(scope.id)
            : this.reads.statement(SELECT_SUBTREE_RIDS, 'pluck').all(subtree!.below, subtree!.belowEnd)
        ) as number[];
        return Float64Array.from(rids, (rid) => textRowOfCode(rid, order.typeCodes[rid])).sort();
      },
      (rows) => 1 + Math.ceil(rows.length / 8),
    );
  }
}
