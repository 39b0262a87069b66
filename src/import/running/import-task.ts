import type { ImportLogSummary, ProgressReport } from '../../import-jobs/import-job.types';
import type { HoldPoint } from '../../import-jobs/job-holds';
import type { RawQuery } from '../import-params';

/**
 * One import as the HTTP side hands it to whatever runs it (in process or in the import worker):
 * plain data, which crosses threads by structured clone. Nest-free, like all a worker loads first.
 */
export interface ImportTask {
  /** The stored log's id, known before the import runs so that its answer can name it. */
  logId: string;
  endpoint: string;
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
  /** A test's hold on the run (`ImportJobsService.holdNext`). */
  hold?: HoldPoint;
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
  /** Resolves when the run may go on past `point` (a test's hold); at once when nothing holds it. */
  pass(point: HoldPoint): Promise<void>;
}
