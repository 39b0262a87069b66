import type { ErrorBody, ImportLogDocument } from '../import-logs/import-log.types';

/**
 * An import as a job (docs/import-jobs.md: "every import is a job while it runs"): what
 * `GET /import/jobs/{id}` answers and its event stream sends.
 */

export const JOB_STATES = ['queued', 'running', 'committed', 'rolled-back', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** States a job does not leave. */
export const FINISHED_STATES: readonly JobState[] = ['committed', 'rolled-back', 'failed', 'cancelled'];

/**
 * What a job is doing: its body arriving, its sources being read (before the first batch of items
 * is written), written (reading goes on, batch by batch), then the commit (or rollback).
 */
export const JOB_PHASES = ['receiving', 'reading', 'writing', 'committing'] as const;
export type JobPhase = (typeof JOB_PHASES)[number];

/** Counts so far; totals are null until known (a body's sources are known once it is unpacked). */
export interface JobProgress {
  sources: { done: number; total: number | null };
  bytes: { read: number; total: number | null };
  /** Items the readers produced or refused. */
  items: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: number;
}

/** A change of progress as the import run reports it: only what changed. */
export interface ProgressReport {
  phase?: JobPhase;
  sources?: Partial<JobProgress['sources']>;
  bytesRead?: number;
  bytesTotal?: number;
  items?: number;
  created?: number;
  updated?: number;
  unchanged?: number;
  errors?: number;
  /** The tags of the sources, once known: for the log of a run whose worker was stopped under it. */
  tags?: string[];
}

/** The import log without its id lists, which a large import's job would otherwise hold. */
export type ImportLogSummary = Omit<ImportLogDocument, 'created_keys' | 'updated_keys' | 'unchanged_keys'>;

export interface ImportJobDocument {
  id: string;
  /** The format endpoint: `ead` for `POST /import/ead`. */
  endpoint: string;
  user: string;
  /** The id of the token that started the import; null for a command line's. */
  tokenId: string | null;
  scope: string | null;
  /** The query parameters as given. */
  parameters: Record<string, string | string[]>;
  commit: boolean;
  state: JobState;
  /** Null while the job waits for the writer and once it has finished. */
  phase: JobPhase | null;
  progress: JobProgress;
  /** ISO 8601 times: when the request arrived, and when the job finished. */
  started: string;
  finished: string | null;
  elapsedSeconds: number;
  /** An estimate of the seconds left, from the bytes read so far; null when there is none. */
  remainingSeconds: number | null;
  /**
   * Once finished: the import log (its id lists in full at `/import/logs/{event}` when committed,
   * and in the import's own answer).
   */
  log: ImportLogSummary | null;
  /** The stored log's id when the import was committed (or a committed import failed or was cancelled). */
  event: string | null;
  /** Why it failed or was cancelled. */
  error: ErrorBody | null;
}

/** A stored job: its document as last written, and the process that ran it. */
export interface StoredJob {
  document: ImportJobDocument;
  pid: number;
  tokenId?: string;
}

/** What `GET /import/jobs` filters on; `user` as the job's acting user. */
export interface JobFilter {
  state?: JobState;
  user?: string;
  endpoint?: string;
}
