import { ImportEvent, ImportInputError, ImportSource, ItemRejected, ReadEvent } from '../formats/read-events';

/**
 * What the main thread and a reading worker tell each other. Both sides import this module, so it
 * stays free of Nest, as does everything a worker loads.
 */

/**
 * What an item is built from when it crosses threads unbuilt: plain data, sent by structured clone.
 * A list, which tells it apart from the events sent with it, and clones faster than objects (their
 * keys are sent with each one).
 */
export type ItemPart = unknown[];

/**
 * An item a reader has read but not built, so that whichever thread has the time builds it: the
 * worker, while the consumer is behind; else the consumer's thread, from `part()`, which costs
 * less to send than the item (building and sending an item cost the worker more than reading it).
 */
export interface UnbuiltItem {
  kind: 'unbuilt';
  build(): ReadEvent;
  /** What the job's `PartBuilder` builds the item from. */
  part(): ItemPart;
}

/** A reader's pure part: what runs in the worker (or in process, with the same results). */
export type ReadFunction<S> = (source: ImportSource, settings: S) => AsyncIterable<ReadEvent | UnbuiltItem>;

/**
 * Takes, on the consumer's thread, an `UnbuiltItem`'s part: the item built, or deferred
 * (`ItemDeferred`) for the import run to build when it must.
 */
export type PartBuilder = (part: ItemPart) => ImportEvent;

/** Makes the `PartBuilder` for one source of a job with these settings. */
export type PartBuilderFactory<S> = (settings: S, source: Omit<ImportSource, 'bytes'>) => PartBuilder;

/** A reader to run in a worker: the `ReadFunction` that `module` exports as `exportName`. */
export interface ReadJob<S> {
  /** The module's absolute path, as `require.resolve` gives it. */
  module: string;
  exportName: string;
  /**
   * The name under which `module` exports its `PartBuilderFactory`: needed when the function
   * yields `UnbuiltItem`s. The consumer's thread loads it.
   */
  partBuilder?: string;
  /** The function's settings; they cross to the worker by structured clone. */
  settings: S;
}

/** The function `job.module` exports under `name`; throws when there is none. */
export function loadExport<F>(job: ReadJob<unknown>, name: string): F {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = (require(job.module) as Record<string, unknown>)[name];
  if (typeof exported !== 'function') throw new Error(`${job.module} exports no function ${name}`);
  return exported as F;
}

/** How far a worker may read ahead of the thread that consumes its events. */
export interface WorkerFlow {
  /** Events per message. */
  eventsPerMessage: number;
  /** Messages of events the worker may send that the consumer has not finished with. */
  messagesAhead: number;
  /** Bytes of the source sent to the worker that it has not started to read. */
  bytesAhead: number;
}

/** What a reading worker works on. */
export interface WorkerInput {
  job: ReadJob<unknown>;
  /**
   * The source, but for its bytes: the worker reads its `file` when it has one; otherwise the main
   * thread sends the bytes as the worker asks for them.
   */
  source: Omit<ImportSource, 'bytes'>;
  flow: WorkerFlow;
}

export type ToWorker =
  /** The source's next chunk, in an `ArrayBuffer` of its own (transferred). */
  | { type: 'bytes'; chunk: Uint8Array }
  /** The source has no more bytes. */
  | { type: 'end' }
  /** The consumer has finished with one message of events. */
  | { type: 'ack' };

/**
 * An event as it is sent: a rejection as it is; the part of an unbuilt item, which the consumer's
 * thread builds; or a built item, as the place where it starts in its message's `items`.
 */
export type SentEvent = ItemRejected | ItemPart | number;

/**
 * One message's events, and the built items among them in one flat list (`FlatItemWriter`), which
 * costs both threads less to clone than the items do.
 */
export interface SentEvents {
  type: 'events';
  events: SentEvent[];
  items: unknown[];
}

export type FromWorker =
  /** The worker took a chunk of this many bytes: as many more may be sent. */
  | { type: 'consumed'; bytes: number }
  /** The worker read this many bytes of the source's file, which it opened itself. */
  | { type: 'read'; bytes: number }
  | SentEvents
  /** The reader finished; every event was sent. */
  | { type: 'done' }
  /** The reader failed, after sending the events it produced before. */
  | { type: 'failed'; error: SentError };

/** An error as it crosses threads: an `ImportInputError` keeps its place, others their message. */
export interface SentError {
  message: string;
  where?: ImportInputError['where'];
}

export function sentError(error: unknown): SentError {
  if (error instanceof ImportInputError) return { message: error.message, where: error.where };
  return { message: error instanceof Error ? error.message : String(error) };
}

export function receivedError(sent: SentError): Error {
  return sent.where === undefined ? new Error(sent.message) : new ImportInputError(sent.message, sent.where);
}
