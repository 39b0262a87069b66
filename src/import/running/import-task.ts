import type { ImportLogSummary, ProgressReport } from '../../import-jobs/import-job.types';
import type { ImportRequestParams, RawQuery } from '../import-params';
import type { ImportScope } from '../import-scope';

/**
 * One import as the HTTP side plans it, once, before it is queued: its parameters parsed, its reader
 * chosen (from the endpoint and `handler`/`importer`), its scope loaded. Plain data.
 */
export interface ImportPlan {
  /** The chosen reader's name (`FormatRegistry.endpoint`). */
  reader: string;
  params: ImportRequestParams;
  /** The scope item as it was when planned; the run reads it again only if it has changed since. */
  scope?: ImportScope;
}

/**
 * One import as the HTTP side hands it to whatever runs it (in process or in the import worker):
 * plain data, which crosses threads by structured clone. Nest-free, like all a worker loads first.
 */
export interface ImportTask {
  /** The stored log's id, known before the import runs so that its answer can name it. */
  logId: string;
  /** The import's job. */
  jobId: string;
  endpoint: string;
  plan: ImportPlan;
  user: string;
  /** The token that acted (its id), checked for revocation just before the import commits. */
  tokenId?: string;
  query: RawQuery;
  contentType?: string;
  /** The request body, spooled to a file of the workspace. */
  body: { file: string; size: number };
  /** The import's private folder (`ImportWorkspace`), which the HTTP side removes when done. */
  workspace: string;
  /** Where the run writes its answer (JSON), for the HTTP side to send. */
  answerFile: string;
  /** The log message (the `log` parameter, or the file it names), read by the HTTP side. */
  message: string | null;
  /** The mapping the `properties` parameter names, read by the HTTP side. */
  properties?: string;
  /** ISO 8601: when the request arrived. */
  started: string;
  /** Milliseconds the body took to arrive and be spooled: the import's first phase (`ImportTimings`). */
  receivingMs?: number;
  /** The request that started it (`X-Request-Id`), kept in the stored log. */
  requestId?: string;
}

/** What a run did, once it is done: its answer is in the task's `answerFile`. */
export interface ImportTaskResult {
  /** True when the import was committed (asked for, and done). */
  committed: boolean;
  log: ImportLogSummary;
}

/** How the run is steered and watched, wherever it runs. */
export interface RunControl {
  /** Aborted when the job is cancelled: the run stops and rolls back. */
  readonly signal: AbortSignal;
  report(report: ProgressReport): void;
  /**
   * Awaited by the run once its first batch of items is written, inside its transaction: a wrapper
   * of the runner may keep the run there (test/support/job-holds.ts); resolves at once otherwise.
   */
  firstBatchWritten(): Promise<void>;
}
