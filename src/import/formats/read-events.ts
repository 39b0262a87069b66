import type { ItemWrite } from '../../graph/graph-store';

/**
 * What a reader reads and what it produces, apart from the Nest side of `format-reader.ts`: a
 * reader's pure part imports these alone, so that it can run in a worker thread without Nest.
 */

/** One document to read: a request body, a local file, a fetched URL or an archive entry. */
export interface ImportSource {
  /** Where it came from, as the import log keys it: the `tag` parameter, a path, a name, an entry. */
  tag: string;
  /** The document's media type when the request said it (`text/turtle`, `text/csv`, …). */
  contentType?: string;
  /**
   * Its length in bytes when known beforehand (a spooled body, a local file, an archive entry's
   * declared size). Untrusted: a hint for choosing how to read, never a limit.
   */
  size?: number;
  /**
   * The local file its bytes are read from, when they are (a spooled body, a path the import roots
   * allow): a reader in a worker thread opens it there rather than have the bytes passed on.
   */
  file?: string;
  /** The raw bytes, read once, in chunks: readers stream and never hold a whole document. */
  bytes(): AsyncIterable<Uint8Array>;
  /**
   * Told the count of each chunk of `file` read elsewhere than through `bytes()` (by a worker
   * thread that opens it itself), for the import's progress.
   */
  onRead?(bytes: number): void;
}

/** An item as a reader produces it: what is written, and a hint for the store (`PutItemsOptions`). */
export type ProducedWrite = Omit<ItemWrite, 'hash'> & {
  /** The item's ancestors' ids from the top down, its parent last, when the reader knows them. */
  ancestors?: readonly string[];
};

/** A main item a reader produced; the run decides whether it is created, updated or unchanged. */
export interface ItemProduced {
  kind: 'item';
  /** The source's tag, under which the id is listed in the log. */
  tag: string;
  /** The item; its hash is `hash`, or computed by the run. */
  write: ProducedWrite;
  /**
   * The item's change hash, when the reader gives one; else the run computes
   * `writeHash(write.bundle, write.edges)`. A reader's hash may be of what it builds the item
   * from rather than of the item, but equal hashes must mean equal items (with equal edges): the
   * store keeps the hash with the item, and an item read again with the stored hash is unchanged.
   */
  hash?: string;
}

/**
 * An item whose id and change hash are known before it is built (`ItemProduced.hash`): the run
 * builds it only when the store has no item of its id, or one with another hash, so that reading
 * unchanged data again builds nothing. Building it may still refuse it.
 */
export interface ItemDeferred {
  kind: 'deferred';
  tag: string;
  id: string;
  hash: string;
  /** The item with its hash (or its refusal), as a reader that builds at once produces it. */
  build(): ReadEvent;
}

/** An item the reader could not build: fatal unless `tolerant`, when it is listed under `errors`. */
export interface ItemRejected {
  kind: 'invalid';
  tag: string;
  /** What the `errors` map is keyed by: the item's id or local id, or a row number. */
  key: string;
  /** Names the item and the field, and where in the source (line, column) when known. */
  message: string;
}

export type ReadEvent = ItemProduced | ItemRejected;

/** What the import run takes from a format reader: read events, and items left to build. */
export type ImportEvent = ReadEvent | ItemDeferred;

/** The id of the item an event produces, built or deferred. */
export function producedId(event: ItemProduced | ItemDeferred): string {
  return event.kind === 'deferred' ? event.id : event.write.bundle.id;
}

/** The event with its item built, if it was deferred. */
export function builtEvent(event: ImportEvent): ReadEvent {
  return event.kind === 'deferred' ? event.build() : event;
}

/**
 * Bounds on the work one import's documents may cause (`IMPORT_MAX_DEPTH`, `IMPORT_MAX_ID_LENGTH`):
 * going past one fails the import with a 400 naming the limit, tolerant or not.
 */
export interface ReadLimits {
  /** Deepest nesting of units (an EAD `archdesc` or top-level `c` is depth 1). */
  maxDepth: number;
  /** Longest item id, in characters. */
  maxIdLength: number;
}

/** What is wrong with an item id over the limit, naming its start; undefined when it is within. */
export function idLengthRefusal(id: string, maxIdLength: number): string | undefined {
  if (id.length <= maxIdLength) return undefined;
  return (
    `An item id of ${id.length} characters is longer than the limit of ${maxIdLength} ` +
    `(IMPORT_MAX_ID_LENGTH): ${id.slice(0, 40)}…`
  );
}

/** An input error the whole import fails on: malformed XML, a bad row, …; maps to 400. */
export class ImportInputError extends Error {
  constructor(
    message: string,
    readonly where: { tag?: string; line?: number; column?: number; key?: string } = {},
  ) {
    super(message);
    this.name = 'ImportInputError';
  }
}
