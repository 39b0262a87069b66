import { EventEmitter } from 'node:events';
import type { ErrorBody } from '../import-logs/import-log.types';
import {
  FINISHED_STATES,
  ImportJobDocument,
  ImportLogSummary,
  JobPhase,
  JobProgress,
  JobState,
  ProgressReport,
} from './import-job.types';
import { JobCancelled } from './job-cancelled';

/** What a job is created from: the request, checked. */
export interface JobSpec {
  endpoint: string;
  user: string;
  scope?: string;
  parameters: Record<string, string | string[]>;
  commit: boolean;
  /** The token that started it: an import token issued to no user still sees its own jobs. */
  tokenId?: string;
}

/** How a job ends: its state, and its log or error. */
export interface JobEnd {
  state: Extract<JobState, 'committed' | 'rolled-back' | 'failed' | 'cancelled'>;
  log?: ImportLogSummary;
  event?: string | null;
  error?: ErrorBody;
}

/**
 * One import's job while this process holds it: its state and progress, which change as the import
 * runs, told to listeners (`change`, then `end` once). Cancelling aborts `signal`, which the import
 * run watches.
 */
export class ImportJob extends EventEmitter<{ change: []; end: [] }> {
  state: JobState = 'queued';
  phase: JobPhase | null = 'receiving';
  readonly progress: JobProgress = {
    sources: { done: 0, total: null },
    bytes: { read: 0, total: null },
    items: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    errors: 0,
  };
  readonly startedAt = Date.now();
  finishedAt: number | null = null;
  log: ImportLogSummary | null = null;
  event: string | null = null;
  error: ErrorBody | null = null;
  private readonly aborter = new AbortController();

  constructor(
    readonly id: string,
    readonly spec: JobSpec,
    readonly started: string,
  ) {
    super();
    // Each watcher of its event stream listens, as many as there are connections to send them.
    this.setMaxListeners(0);
  }

  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  get finished(): boolean {
    return FINISHED_STATES.includes(this.state);
  }

  /** Stops the job where it is; its run rolls back. */
  cancel(reason: string): void {
    if (!this.finished) this.aborter.abort(new JobCancelled(reason));
  }

  report(report: ProgressReport): void {
    if (this.finished) return;
    const { progress } = this;
    if (report.phase !== undefined) this.phase = report.phase;
    if (report.sources?.done !== undefined) progress.sources.done = report.sources.done;
    if (report.sources?.total !== undefined) progress.sources.total = report.sources.total;
    if (report.bytesRead !== undefined) progress.bytes.read = report.bytesRead;
    if (report.bytesTotal !== undefined) progress.bytes.total = report.bytesTotal;
    for (const name of ['items', 'created', 'updated', 'unchanged', 'errors'] as const) {
      const value = report[name];
      if (value !== undefined) progress[name] = value;
    }
    this.emit('change');
  }

  begin(): void {
    this.state = 'running';
    this.phase = 'reading';
    this.emit('change');
  }

  /** Waiting for the writer, its body received. */
  waiting(): void {
    this.phase = null;
    this.emit('change');
  }

  end(end: JobEnd): void {
    if (this.finished) return;
    this.state = end.state;
    this.phase = null;
    this.finishedAt = Date.now();
    this.log = end.log ?? null;
    this.event = end.event ?? null;
    this.error = end.error ?? null;
    this.emit('change');
    this.emit('end');
  }

  /** Items a second, over the time it has run. */
  rate(now = Date.now()): number {
    const seconds = ((this.finishedAt ?? now) - this.startedAt) / 1000;
    return seconds > 0 ? this.progress.items / seconds : 0;
  }

  document(now = Date.now()): ImportJobDocument {
    const elapsed = ((this.finishedAt ?? now) - this.startedAt) / 1000;
    const { bytes } = this.progress;
    const remaining =
      !this.finished && bytes.total !== null && bytes.read > 0 && this.phase !== 'receiving'
        ? (elapsed * Math.max(bytes.total - bytes.read, 0)) / bytes.read
        : null;
    return {
      id: this.id,
      endpoint: this.spec.endpoint,
      user: this.spec.user,
      tokenId: this.spec.tokenId ?? null,
      scope: this.spec.scope ?? null,
      parameters: this.spec.parameters,
      commit: this.spec.commit,
      state: this.state,
      phase: this.phase,
      progress: structuredClone(this.progress),
      started: this.started,
      finished: this.finishedAt === null ? null : new Date(this.finishedAt).toISOString(),
      elapsedSeconds: round(elapsed),
      remainingSeconds: remaining === null ? null : round(remaining),
      log: this.log,
      event: this.event,
      error: this.error,
    };
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
