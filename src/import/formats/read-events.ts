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
}

/** A main item a reader produced; the run decides whether it is created, updated or unchanged. */
export interface ItemProduced {
  kind: 'item';
  /** The source's tag, under which the id is listed in the log. */
  tag: string;
  /** The item; its hash is `hash`, or computed by the run. */
  write: Omit<ItemWrite, 'hash'>;
  /**
   * `writeHash(write.bundle, write.edges)`, when it was computed beforehand (in the worker thread
   * that read the source, so that the thread that writes need not).
   */
  hash?: string;
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
