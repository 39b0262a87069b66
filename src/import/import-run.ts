import { GraphWriter, ItemWrite, StoredItem } from '../graph/graph-store';
import { mergeDescriptions, sameContent, writeHash } from '../items/change-detection';
import { itemChanges } from '../items/item-changes';
import { ChangeRecorder } from '../import-logs/change-records';
import { ImportLogDocument } from '../import-logs/import-log.types';
import { WalkedIds } from '../import-logs/walked-ids';
import {
  FormatReader,
  ImportContext,
  ImportEvent,
  ImportOutcome,
  ImportSource,
  ItemDeferred,
  ItemProduced,
  ItemRejected,
} from './formats/format-reader';
import { idLengthRefusal, producedId } from './formats/read-events';
import { badRequest } from './import-errors';
import { PhaseClock } from './phase-clock';
import { LedgerEntry, RunLedger, STATUSES, Status } from './run-ledger';

/**
 * Items written per round trip to the store. A batch's items live until it is written, and V8
 * promotes what outlives two scavenges of its young generation, which reading a few hundred EAD
 * units allocates: a batch that large was promoted, and collecting it in the old generation cost a
 * re-import time and memory (docs/performance.md).
 */
export const BATCH_SIZE = 100;

export interface RunOptions {
  tolerant: boolean;
  /** Whether an item whose content changes may be written (else the import fails). */
  allowUpdate: boolean;
  useSourceId: boolean;
  /** How an incoming item's descriptions meet the stored ones (`FormatReader.descriptionUpdate`). */
  descriptionUpdate: 'merge' | 'replace';
  /** Longest item id; a longer one fails the import, tolerant or not (`ReadLimits`). */
  maxIdLength: number;
  /** Cancels the run (shutting down): it stops at the next item, with the signal's reason. */
  signal?: AbortSignal;
  /** Keeps what each update changed, for the import log. */
  changes?: ChangeRecorder;
  /** Tells the run's time by phase; a clock of its own when not given. */
  clock?: PhaseClock;
}

function sortedEqual(a: readonly string[] = [], b: readonly string[] = []): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

/** Whether writing `edges` would change the stored item's edges of the types it names. */
function edgesChange(edges: ItemWrite['edges'], stored: StoredItem): boolean {
  return Object.entries(edges ?? {}).some(
    ([type, targets]) => !sortedEqual(targets, stored.edges[type as keyof StoredItem['edges']]),
  );
}

/** What a run has done so far, for its job's progress. */
export interface RunCounts {
  /** Items the readers produced or refused. */
  items: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: number;
}

/** An item of a batch with its change hash; `item` is left out when the store's hash equals it. */
interface BatchItem {
  id: string;
  tag: string;
  hash: string;
  item?: ItemProduced;
}

/** The ids with one of some statuses, read from the ledger as it is now. */
class ResultIds implements ReadonlySet<string> {
  constructor(
    private readonly ledger: RunLedger,
    private readonly statuses: readonly Status[],
  ) {}

  get size(): number {
    return this.ledger.count(this.statuses);
  }

  has(id: string): boolean {
    return this.ledger.has(id, this.statuses);
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const id of this) callback.call(thisArg, id, id, this);
  }

  *[Symbol.iterator](): SetIterator<string> {
    for (const { id } of this.ledger.walk(this.statuses)) yield id;
  }

  keys(): SetIterator<string> {
    return this[Symbol.iterator]();
  }

  values(): SetIterator<string> {
    return this[Symbol.iterator]();
  }

  *entries(): SetIterator<[string, string]> {
    for (const id of this) yield [id, id];
  }
}

/**
 * The import run's loop over the items readers produce: batches them, finds which exist, and
 * decides for each whether it is created, updated or unchanged (docs/import-identifiers.md), writing only what
 * changes. An id produced twice in one import counts once, by its net effect on the store as it
 * was before the import: an item the import created stays created, whatever later sources add.
 */
export class ImportRun {
  private pending: (ItemProduced | ItemDeferred)[] = [];
  private readonly pendingIds = new Set<string>();
  /** The source tags ids are listed under, and their indexes in that list. */
  private readonly tags: string[] = [];
  private readonly tagIndexes = new Map<string, number>();
  /** By item key, as the source names it: without a prototype, so that any key is a key. */
  private readonly errors: Record<string, string> = Object.create(null) as Record<string, string>;
  private readonly counts: RunCounts = { items: 0, created: 0, updated: 0, unchanged: 0, errors: 0 };
  private readonly clock: PhaseClock;

  /**
   * `ledger` keeps what happened to each id, in the order the log lists them; `afterBatch` is
   * called after each batch is written, with the counts so far, and may stop the run by throwing.
   */
  constructor(
    private readonly tx: GraphWriter,
    private readonly options: RunOptions,
    private readonly ledger: RunLedger,
    private readonly afterBatch: (counts: Readonly<RunCounts>) => Promise<void> = async () => undefined,
  ) {
    this.clock = options.clock ?? new PhaseClock();
  }

  /** Reads every source in order; each source's items are written before the next is read. */
  async read(reader: FormatReader, sources: readonly ImportSource[], context: ImportContext): Promise<void> {
    for (const source of sources) {
      // Only the waits for items are reading: a reader that parses in a thread of its own parses
      // while the batches before are compared and written.
      for await (const event of this.clock.timed('reading', reader.read(source, context))) {
        await this.accept(event);
      }
      await this.flush();
    }
  }

  /** Views of the results, not copies: a finish step reads a few ids of a run of any size. */
  outcome(): ImportOutcome {
    return {
      produced: new ResultIds(this.ledger, STATUSES),
      created: new ResultIds(this.ledger, ['created']),
      updated: new ResultIds(this.ledger, ['updated']),
      unchanged: new ResultIds(this.ledger, ['unchanged']),
    };
  }

  /**
   * The import log, and the ids the import wrote (those of the run, then `alsoTouched`), as lists
   * read from the ledger whenever they are walked (`WalkedIds`): the ledger must stay open until
   * the log is stored and answered.
   */
  results(
    message: string | null,
    event: string | null,
    alsoTouched: readonly string[] = [],
  ): { log: ImportLogDocument<WalkedIds>; touched: WalkedIds } {
    // By source tag, which the request names: without a prototype, so that any tag is a key.
    const byTag = () => Object.create(null) as Record<string, WalkedIds>;
    const keys: Record<Status, Record<string, WalkedIds>> = {
      created: byTag(),
      updated: byTag(),
      unchanged: byTag(),
    };
    const counts: Record<Status, number> = { created: 0, updated: 0, unchanged: 0 };
    for (const list of this.ledger.tagLists()) {
      keys[list.status][this.tags[list.tagIndex]] = new WalkedIds(list.count, () =>
        this.ledger.walkTagList(list),
      );
      counts[list.status] += list.count;
    }
    const written = new ResultIds(this.ledger, ['created', 'updated']);
    const touched = new WalkedIds(counts.created + counts.updated + alsoTouched.length, function* () {
      yield* written;
      yield* alsoTouched;
    });
    const log: ImportLogDocument<WalkedIds> = {
      created: counts.created,
      created_keys: keys.created,
      updated: counts.updated,
      updated_keys: keys.updated,
      unchanged: counts.unchanged,
      unchanged_keys: keys.unchanged,
      errors: this.errors,
      message,
      event,
    };
    return { log, touched };
  }

  private async accept(event: ImportEvent): Promise<void> {
    this.counts.items++;
    this.options.signal?.throwIfAborted();
    if (event.kind === 'invalid') return this.reject(event);
    const id = producedId(event);
    const tooLong = idLengthRefusal(id, this.options.maxIdLength);
    if (tooLong !== undefined) throw badRequest({ message: tooLong, tag: event.tag });
    // A second occurrence must see the first one written.
    if (this.pendingIds.has(id)) await this.flush();
    this.pending.push(event);
    this.pendingIds.add(id);
    if (this.pending.length >= BATCH_SIZE) await this.flush();
  }

  private reject(event: ItemRejected): void {
    if (!this.options.tolerant) {
      throw badRequest({ message: event.message, tag: event.tag, key: event.key });
    }
    this.errors[event.key] = event.message;
    this.counts.errors++;
  }

  /**
   * Writes the batch. An item costs its hash and its share of one `getHashes`: only an item whose
   * stored hash differs is read back and compared, and a deferred item is built only then, or
   * when it is new.
   */
  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    await this.clock.measure('comparing', () => this.writeBatch());
    await this.afterBatch(this.counts);
  }

  private async writeBatch(): Promise<void> {
    const events = this.pending;
    this.pending = [];
    this.pendingIds.clear();
    const storedHashes = await this.tx.getHashes(events.map(producedId));
    const batch = this.settle(events, storedHashes);
    // Equal hashes mean equal content and edges: only the others need their stored bundle.
    const differing = batch
      .filter(({ id, hash }) => storedHashes.has(id) && storedHashes.get(id) !== hash)
      .map(({ id }) => id);
    const stored = differing.length > 0 ? await this.tx.getItems(differing) : undefined;
    // Only a stored item can have been produced before in this run: the first time wrote it.
    const earlier = storedHashes.size > 0 ? this.ledger.entries([...storedHashes.keys()]) : undefined;
    const writes: ItemWrite[] = [];
    const ancestors = new Map<string, readonly string[]>();
    const rehashed = new Map<string, string>();
    for (const { id, tag, hash, item } of batch) {
      const storedHash = storedHashes.get(id);
      if (item === undefined || storedHash === hash) {
        this.record(id, tag, 'unchanged', earlier?.get(id));
      } else if (storedHash === undefined) {
        const { ancestors: hint, ...write } = item.write;
        writes.push({ ...write, hash });
        if (hint !== undefined) ancestors.set(id, hint);
        this.record(id, tag, 'created', undefined);
      } else {
        const update = this.update(item, hash, stored?.get(id), rehashed);
        this.record(id, tag, update === undefined ? 'unchanged' : 'updated', earlier?.get(id));
        if (update !== undefined) writes.push(update);
      }
    }
    // Ancestors are a hint for placing new items, which the store takes beside the writes.
    await this.clock.measure('writing', async () => {
      if (writes.length > 0) await this.tx.putItems(writes, { ancestors });
      if (rehashed.size > 0) await this.tx.setHashes(rehashed);
    });
  }

  /**
   * The batch's items with their change hashes, in order. A deferred item is built unless the
   * store holds its id with its hash; one that building refuses is rejected here (so that, when
   * tolerant, its entry under `errors` follows those of refusals read later in the batch).
   */
  private settle(
    events: readonly (ItemProduced | ItemDeferred)[],
    storedHashes: ReadonlyMap<string, string>,
  ): BatchItem[] {
    const batch: BatchItem[] = [];
    for (const event of events) {
      if (event.kind === 'item') {
        const { bundle, edges } = event.write;
        batch.push({
          id: bundle.id,
          tag: event.tag,
          hash: event.hash ?? writeHash(bundle, edges),
          item: event,
        });
        continue;
      }
      const { id, tag, hash } = event;
      if (storedHashes.get(id) === hash) {
        batch.push({ id, tag, hash });
        continue;
      }
      const built = this.clock.measureSync('building', () => event.build());
      if (built.kind === 'invalid') {
        this.reject(built);
      } else if (built.write.bundle.id !== id) {
        throw new Error(`A deferred item announced as ${id} was built as ${built.write.bundle.id}`);
      } else {
        batch.push({ id, tag, hash, item: built });
      }
    }
    return batch;
  }

  /**
   * What to write for an existing item whose stored hash is not `hash`; undefined when it is
   * unchanged. The item's own hash goes with it only when what is stored is the item as it came
   * (nothing merged in): a reader's hash vouches for its own item, not for a merge. An unchanged
   * item stored as it came gets `hash` in `rehashed`, so that reading it again is found unchanged
   * by its hash (its stored one may come from an older build or another reader).
   */
  private update(
    item: ItemProduced,
    hash: string,
    stored: StoredItem | undefined,
    rehashed: Map<string, string>,
  ): ItemWrite | undefined {
    if (stored === undefined) return undefined;
    const bundle =
      this.options.descriptionUpdate === 'merge'
        ? this.clock.measureSync('building', () =>
            mergeDescriptions(stored.bundle, item.write.bundle, { useSourceId: this.options.useSourceId }),
          )
        : item.write.bundle;
    const asItCame = bundle === item.write.bundle;
    if (sameContent(bundle, stored.bundle) && !edgesChange(item.write.edges, stored)) {
      if (asItCame) rehashed.set(item.write.bundle.id, hash);
      return undefined;
    }
    this.options.changes?.record(itemChanges(stored, { bundle, edges: item.write.edges }));
    const { ancestors: _hint, ...write } = item.write;
    return { ...write, bundle, hash: asItCame ? hash : writeHash(bundle, item.write.edges) };
  }

  private record(id: string, tag: string, status: Status, earlier: LedgerEntry | undefined): void {
    if (earlier?.status === 'created') return;
    if (status === 'updated' && !this.options.allowUpdate) {
      throw badRequest({
        message: `Item ${id} exists with different content and allow-update is false`,
        id,
        tag,
      });
    }
    if (earlier === undefined) {
      this.ledger.appendNew({ id, status, tagIndex: this.tagIndex(tag) });
      this.counts[status]++;
    } else if (status === 'updated') {
      // An item counted unchanged before, now updated; one updated before stays one update.
      if (earlier.status === 'unchanged') {
        this.counts.unchanged--;
        this.counts.updated++;
      }
      // Listed again, last; under the tag of its first update.
      const tagIndex = earlier.status === 'updated' ? earlier.tagIndex : this.tagIndex(tag);
      this.ledger.append({ id, status, tagIndex });
    }
  }

  private tagIndex(tag: string): number {
    let index = this.tagIndexes.get(tag);
    if (index === undefined) {
      index = this.tags.push(tag) - 1;
      this.tagIndexes.set(tag, index);
    }
    return index;
  }
}
