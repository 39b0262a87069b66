import type { Ids } from './walked-ids';

// The console's browser client compiles these shapes with its own (DOM, no Node) settings: this
// file and the type files it imports must not import server code.

/**
 * The import log (README, "Import logs"): what one import did, as the import endpoints answer it and as
 * the stored log keeps it. Counts are main items only; the `*_keys` maps list ids by source tag,
 * walked from the import's ledger while it is stored and answered (`WalkedIds`), held when read
 * back.
 */
export interface ImportLogDocument<I extends Ids = string[]> {
  created: number;
  created_keys: Record<string, I>;
  updated: number;
  updated_keys: Record<string, I>;
  unchanged: number;
  unchanged_keys: Record<string, I>;
  /** Items skipped in tolerant mode: key (id, local id or row) → message. */
  errors: Record<string, string>;
  message: string | null;
  /** The stored log's id; `null` for a dry run, which stores nothing. */
  event: string | null;
  /** Where the import's time went; absent in logs stored before it was measured. */
  timings?: ImportTimings;
}

/** The phases an import's time is told by (`ImportTimings`). */
export const IMPORT_PHASES = [
  'receiving',
  'reading',
  'building',
  'comparing',
  'writing',
  'committing',
] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];

/**
 * Wall time in milliseconds by phase (README, "Import logs"). The phases do not overlap, so they
 * sum to at most `total`; the rest is time spent between them (progress reports, the scope's
 * read). A stored log, and the answer, which is the same, end just before the log is written and
 * committed: only the job's have `committing`, and a `total` that goes on to its end.
 */
export type ImportTimings = Partial<Record<ImportPhase, number>> & { total: number };

/** What a log says of its change records. */
export interface ChangesSummary {
  /** Updated items whose changes were kept. */
  count: number;
  /** Whether the cap stopped recording: later updated items are listed by id only (`updated_keys`). */
  truncated: boolean;
}

/** The body of every error answer of the import interface and the import-log endpoints. */
export interface ErrorBody {
  status: number;
  /** The status's reason phrase. */
  error: string;
  /**
   * What went wrong: a message, or for input and validation errors an object with the message and
   * where it happened (`tag`, `line`, `column`, `key`).
   */
  details:
    | string
    | ({ message: string; tag?: string; line?: number; column?: number; key?: string } & Record<
        string,
        unknown
      >);
  /** The id of the request answered (`X-Request-Id`), to match a report with the server's logs. */
  requestId?: string;
}

/**
 * `cancelled`: a committed import stopped by a cancel (its job's), rolled back like a failure;
 * `interrupted`: cancelled, and rolled back, because the service was shutting down.
 */
export const IMPORT_OUTCOMES = ['succeeded', 'failed', 'cancelled', 'interrupted'] as const;
export type ImportOutcomeName = (typeof IMPORT_OUTCOMES)[number];

/** One stored import log (record type `ImportLog`); its id lists as `ImportLogDocument`'s. */
export interface ImportLogRecord<I extends Ids = string[]> {
  id: string;
  /** The format endpoint: `ead` for `POST /import/ead`. */
  endpoint: string;
  /** The query parameters as given. */
  parameters: Record<string, string | string[]>;
  user: string;
  /**
   * The id of the token that acted (`token list`): absent for a command line's import, and in
   * logs stored before tokens were recorded.
   */
  tokenId?: string;
  scope?: string;
  /** The id of the request that started the import (`X-Request-Id`); absent in older logs. */
  requestId?: string;
  /** The tags of the sources read, in order. */
  tags: string[];
  /** The import log; absent when the import failed. */
  log?: ImportLogDocument<I>;
  /** The answer, when the format shaped it differently from the log (e.g. a sync's deletions). */
  result?: Record<string, unknown>;
  /** How many updated items' changes the log keeps (`GET /import/logs/{id}/changes`). */
  changes?: ChangesSummary;
  /** Ids of the items the import created, updated or otherwise changed. */
  touched: I;
  outcome: ImportOutcomeName;
  error?: ErrorBody;
  /** ISO 8601 times. */
  started: string;
  finished: string;
}

/** The counts of an import log, without its id lists or its errors' messages. */
export interface ImportLogCounts {
  created: number;
  updated: number;
  unchanged: number;
  /** Items skipped in tolerant mode. */
  errors: number;
  /** Cut short in a list (`ImportLogListItem`). */
  message: string | null;
  event: string | null;
}

/**
 * A stored log as `GET /import/logs` lists it: counts, never item ids (`GET
 * /import/logs/{id}/items` pages them), its message and tags cut short, so that an answer's size
 * does not grow with the imports it lists.
 */
export interface ImportLogListItem extends Omit<ImportLogRecord, 'log' | 'result' | 'touched'> {
  log?: ImportLogCounts;
  /** How many items the import created, updated or otherwise changed. */
  touchedCount: number;
  /** How many sources it read; `tags` lists the first of them. */
  tagCount: number;
}

/** How an item fared in an import, as `GET /import/logs/{id}/items` lists it. */
export const ITEM_CHANGES = ['created', 'updated', 'unchanged'] as const;
export type ItemChange = (typeof ITEM_CHANGES)[number];

export interface ImportLogItem {
  id: string;
  change: ItemChange;
  /** The tag of the source it came from. */
  tag: string;
}

/** Filters of `GET /import/logs`; `from`/`to` bound the start time (ISO 8601, inclusive). */
export interface ImportLogQuery {
  user?: string;
  scope?: string;
  endpoint?: string;
  outcome?: ImportOutcomeName;
  from?: string;
  to?: string;
  offset: number;
  limit: number;
}
