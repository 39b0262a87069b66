import { hash } from 'node:crypto';
import { GraphWriter, ItemWrite, StoredItem } from '../graph/graph-store';
import { Bundle } from '../items/bundle';
import { itemHash, mergeDescriptions, sameContent } from '../items/change-detection';
import { ImportLogDocument } from '../logging/import-log.types';
import {
  FormatReader,
  ImportContext,
  ImportOutcome,
  ImportSource,
  ItemProduced,
  ItemRejected,
  ReadEvent,
} from './formats/format-reader';
import { badRequest } from './import-errors';

/** Items written per round trip to the store. */
export const BATCH_SIZE = 500;

export interface RunOptions {
  tolerant: boolean;
  /** Whether an item whose content changes may be written (else the import fails). */
  allowUpdate: boolean;
  useSourceId: boolean;
  /** How an incoming item's descriptions meet the stored ones (`FormatReader.descriptionUpdate`). */
  descriptionUpdate: 'merge' | 'replace';
}

type Status = 'created' | 'updated' | 'unchanged';

/** What happened to one id, and under which source tag it is listed. */
interface Result {
  status: Status;
  tag: string;
}

interface Decision {
  status: Status;
  write?: ItemWrite;
}

/**
 * The hash stored with an item the run writes: the content's `itemHash`, extended by the edges the
 * write names, so that an equal hash means neither changed (a concept whose `narrower` edges
 * changed is an update even when its bundle is not).
 */
function writeHash(bundle: Bundle, edges: ItemWrite['edges']): string {
  const named = Object.entries(edges ?? {})
    .map(([type, targets]) => [type, [...(targets ?? [])].sort()] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  const content = itemHash(bundle);
  return named.length === 0 ? content : `${content}.${hash('sha256', JSON.stringify(named), 'base64url')}`;
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

/**
 * The import run's loop over the items readers produce: batches them, finds which exist, and
 * decides for each whether it is created, updated or unchanged (DESIGN.md §4), writing only what
 * changes. An id produced twice in one import counts once, by its net effect on the store as it
 * was before the import: an item the import created stays created, whatever later sources add.
 */
export class ImportRun {
  private pending: ItemProduced[] = [];
  private readonly pendingIds = new Set<string>();
  private readonly results = new Map<string, Result>();
  private readonly errors: Record<string, string> = {};

  constructor(
    private readonly tx: GraphWriter,
    private readonly options: RunOptions,
  ) {}

  /** Reads every source in order; each source's items are written before the next is read. */
  async read(reader: FormatReader, sources: readonly ImportSource[], context: ImportContext): Promise<void> {
    for (const source of sources) {
      for await (const event of reader.read(source, context)) await this.accept(event);
      await this.flush();
    }
  }

  outcome(): ImportOutcome {
    const withStatus = (status: Status) =>
      new Set([...this.results].filter(([, result]) => result.status === status).map(([id]) => id));
    return {
      produced: new Set(this.results.keys()),
      created: withStatus('created'),
      updated: withStatus('updated'),
      unchanged: withStatus('unchanged'),
    };
  }

  /** Ids the import wrote. */
  touched(): string[] {
    return [...this.results].filter(([, result]) => result.status !== 'unchanged').map(([id]) => id);
  }

  document(message: string | null, event: string | null): ImportLogDocument {
    const keys: Record<Status, Record<string, string[]>> = { created: {}, updated: {}, unchanged: {} };
    for (const [id, { status, tag }] of this.results) (keys[status][tag] ??= []).push(id);
    const count = (status: Status) => Object.values(keys[status]).reduce((sum, ids) => sum + ids.length, 0);
    return {
      created: count('created'),
      created_keys: keys.created,
      updated: count('updated'),
      updated_keys: keys.updated,
      unchanged: count('unchanged'),
      unchanged_keys: keys.unchanged,
      errors: this.errors,
      message,
      event,
    };
  }

  private async accept(event: ReadEvent): Promise<void> {
    if (event.kind === 'invalid') return this.reject(event);
    const id = event.write.bundle.id;
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
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.pendingIds.clear();
    const incoming = batch.map((item) => ({
      item,
      incomingHash: writeHash(item.write.bundle, item.write.edges),
    }));
    const hashes = await this.tx.getHashes(incoming.map(({ item }) => item.write.bundle.id));
    // Equal hashes mean equal content and edges: only the others need their stored bundle.
    const differing = incoming
      .filter(({ item, incomingHash }) => {
        const stored = hashes.get(item.write.bundle.id);
        return stored !== undefined && stored !== incomingHash;
      })
      .map(({ item }) => item.write.bundle.id);
    const stored = differing.length > 0 ? await this.tx.getItems(differing) : new Map<string, StoredItem>();
    const writes: ItemWrite[] = [];
    for (const { item, incomingHash } of incoming) {
      const id = item.write.bundle.id;
      const decision = this.decide(item, incomingHash, hashes.has(id), stored.get(id));
      this.record(id, item.tag, decision.status);
      if (decision.write !== undefined) writes.push(decision.write);
    }
    if (writes.length > 0) await this.tx.putItems(writes);
  }

  private decide(item: ItemProduced, incomingHash: string, exists: boolean, stored?: StoredItem): Decision {
    if (!exists) return { status: 'created', write: { ...item.write, hash: incomingHash } };
    if (stored === undefined) return { status: 'unchanged' };
    const bundle =
      this.options.descriptionUpdate === 'merge'
        ? mergeDescriptions(stored.bundle, item.write.bundle, { useSourceId: this.options.useSourceId })
        : item.write.bundle;
    if (sameContent(bundle, stored.bundle) && !edgesChange(item.write.edges, stored)) {
      return { status: 'unchanged' };
    }
    return { status: 'updated', write: { ...item.write, bundle, hash: writeHash(bundle, item.write.edges) } };
  }

  private record(id: string, tag: string, status: Status): void {
    const previous = this.results.get(id);
    if (previous?.status === 'created') return;
    if (status === 'updated' && !this.options.allowUpdate) {
      throw badRequest({
        message: `Item ${id} exists with different content and allow-update is false`,
        id,
        tag,
      });
    }
    if (previous === undefined || status === 'updated') {
      this.results.delete(id);
      this.results.set(id, { status, tag: previous?.status === 'updated' ? previous.tag : tag });
    }
  }
}
