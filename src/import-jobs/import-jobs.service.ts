import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ClusterJobsChannel } from '../cluster/cluster-jobs';
import { ClusterQueueAdmission, LocalQueueAdmission, QueueAdmission } from '../cluster/cluster-queue';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { GraphStore } from '../graph/graph-store';
import { ReadinessChecks } from '../health/readiness-checks';
import { errorBodyOf, ImportHttpError, notFound, QueueFullError } from '../import/import-errors';
import { ImportLogService } from '../import-logs/import-log.service';
import type { ErrorBody } from '../import-logs/import-log.types';
import { FailedImport, failureEnd, storeFailedImport } from './failed-import-log';
import { ImportJob, JobEnd, JobSpec } from './import-job';
import { ImportJobRecords, matches } from './import-job-records';
import { FINISHED_STATES, ImportJobDocument, JobFilter, JobState } from './import-job.types';
import { rejectOnAbort } from './job-cancelled';
import { JobJournal, journalJob } from './job-journal';
import { markInterrupted } from './job-restart';
import { JobRecordWrites } from './job-record-writes';
import { QueueRefusal, QueueState } from './queue-bound';
import { PROGRESS_INTERVAL_MS } from './job-event-stream';
import { RemoteJobs, WatchedJob } from './remote-jobs';

/** Finished jobs kept in memory, besides the store's records, for their full documents. */
const FINISHED_KEPT = 100;

/** Who asks about jobs: `ops` sees every job, `import` those of its user or its token. */
export interface JobViewer {
  role: string;
  user?: string;
  tokenId?: string;
}

export function mayView(viewer: JobViewer, job: { user: string; tokenId?: string }): boolean {
  if (viewer.role === 'ops') return true;
  return (
    (viewer.user !== undefined && viewer.user === job.user) ||
    (viewer.tokenId !== undefined && viewer.tokenId === job.tokenId)
  );
}

/**
 * An import's place in the queue, taken before its body is read: `grow` reserves more bytes for a
 * body of unknown length (throws the refusal past a bound); `release` gives the place up.
 */
export interface QueuePlace {
  id: string;
  grow(bytes: number): Promise<void>;
  release(): void;
}

function queueFull(refusal: QueueRefusal): QueueFullError {
  return new QueueFullError(refusal.status, refusal.details, refusal.retryAfterSeconds);
}

/** How a cancel ended: the job, cancelled; why not (it had finished); or no such job (undefined). */
export type CancelResult = { cancelled: ImportJobDocument } | { refused: ErrorBody } | undefined;

function alreadyFinished(state: JobState): { refused: ErrorBody } {
  return refused(`The import job has already finished (${state})`);
}

function refused(details: string): { refused: ErrorBody } {
  return { refused: errorBodyOf(new ImportHttpError(HttpStatus.CONFLICT, details)) };
}

/**
 * Every import is a job while it runs (docs/import-jobs.md). Jobs run one at a time, in the order they
 * became ready (the store has one writer); each is kept in the store when it waits, starts and
 * ends (`JobRecordWrites`), so that one a stopped process had is reported interrupted after a
 * restart. With several HTTP workers, each tells the others its jobs (`ClusterJobsChannel`), so
 * that any serves any job live. `cancelAll` is for a shutdown that must not wait for imports.
 */
@Injectable()
export class ImportJobsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ImportJobs');
  private readonly records: ImportJobRecords;
  private readonly writes: JobRecordWrites;
  private readonly live = new Map<string, ImportJob>();
  /** The other HTTP workers' jobs, when there are others. */
  private readonly remote = new RemoteJobs();
  private readonly channel?: ClusterJobsChannel;
  /** The end of the last job given the writer (its end stored): the next starts after it. */
  private writer: Promise<unknown> = Promise.resolve();
  /** Jobs given or waiting for the writer: one more waits. */
  private inLine = 0;
  private ticker?: NodeJS.Timeout;
  /** Ends the writer's turn of each job that has it, once its end is stored. */
  private readonly turns = new Map<string, () => void>();
  /** The bound on imports held: this process's, or with several HTTP workers the primary's. */
  private readonly queue: QueueAdmission;
  /** Each going job's latest document, outside the store, for a restart after a crash. */
  private readonly journal: JobJournal;
  /** Ends the journalling of each going job (`journalJob`). */
  private readonly journalled = new Map<string, { end(): Promise<void> }>();

  constructor(
    graph: GraphStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    readiness: ReadinessChecks,
    private readonly logs: ImportLogService,
  ) {
    this.records = new ImportJobRecords(graph);
    this.journal = new JobJournal(config.import.tempDir, config.graphUrl);
    this.writes = new JobRecordWrites(this.records, this.remote);
    this.queue = ClusterJobsChannel.available()
      ? new ClusterQueueAdmission()
      : new LocalQueueAdmission(config.import.queue);
    readiness.add('importQueue', async () => {
      const { full, ...held } = await this.queueState();
      if (full !== undefined) throw new Error(`The import queue is full: ${full}`);
      return held;
    });
    if (ClusterJobsChannel.available()) {
      this.channel = new ClusterJobsChannel({
        updated: (pid, jobs) => this.remote.updated(pid, jobs),
        gone: (pid) => this.remote.gone(pid),
        cancel: async (id, viewer) => {
          const result = await this.cancel(id, viewer);
          if (result === undefined) return { error: errorBodyOf(notFound(`Import job not found: ${id}`)) };
          return 'cancelled' in result ? { document: result.cancelled } : { error: result.refused };
        },
      });
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      const interrupted = await markInterrupted(
        this.records,
        this.journal,
        this.logs,
        new Date().toISOString(),
      );
      if (interrupted > 0) {
        this.logger.warn({ jobs: interrupted, msg: 'Imports interrupted by a stop were marked failed' });
      }
    } catch (error) {
      // A store that cannot be read or written starts not ready (readiness says why), not at all.
      this.logger.error({ err: error, msg: 'Could not mark the imports interrupted by a stop' });
    }
    this.ticker = setInterval(() => this.logRunning(), this.config.import.jobLogIntervalMs).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.ticker);
    this.cancelAll('The service is stopping');
    this.channel?.close();
    this.queue.close();
  }

  /**
   * A place in the queue for an import of `user` whose body announces `bytes` (0 when unknown), or
   * a `QueueFullError` (429 or 503, with when to retry): asked before the body is read.
   */
  async admit(user: string, bytes: number): Promise<QueuePlace> {
    const id = randomUUID();
    const refusal = await this.queue.admit({ id, user, bytes });
    if (refusal !== undefined) throw queueFull(refusal);
    return {
      id,
      grow: async (total) => {
        const refused = await this.queue.grow(id, total);
        if (refused !== undefined) throw queueFull(refused);
      },
      release: () => this.queue.release(id),
    };
  }

  /** What the queue holds, and why it takes no import if it is full. */
  queueState(): Promise<QueueState> {
    return this.queue.state();
  }

  /** The job of an admitted import; its end gives its place in the queue up. */
  create(spec: JobSpec, place: QueuePlace): ImportJob {
    const job = new ImportJob(place.id, spec, new Date().toISOString());
    job.once('end', () => place.release());
    const failed = (error: unknown) => this.notStored(job, error);
    this.journalled.set(job.id, journalJob(this.journal, job, failed));
    // Stored at once (when no import writes), so that it keeps its id whatever stops the service.
    void this.writes.record(job).catch((error: unknown) => this.notStored(job, error));
    this.live.set(job.id, job);
    if (this.channel !== undefined) this.share(job);
    return job;
  }

  /**
   * Runs `work` (the job's body received) once every job before this one has ended, and no other
   * HTTP worker's import runs; the job is `running` (and stored so) meanwhile. A job cancelled
   * while it waits stops waiting: `work` is not called and this rejects with the cancellation.
   * `work` ends the job (`finish`) or throws; the next job waits for `finish` to have stored the
   * end.
   */
  async run<T>(job: ImportJob, work: () => Promise<T>): Promise<T> {
    const previous = this.writer;
    let over!: () => void;
    const turn = new Promise<void>((resolve) => (over = resolve));
    this.writer = Promise.all([previous, turn]);
    const queued = this.inLine > 0;
    this.inLine++;
    const done = () => {
      this.inLine--;
      over();
    };
    try {
      if (queued) void this.writes.record(job).catch((error: unknown) => this.notStored(job, error));
      await Promise.race([previous, rejectOnAbort(job.signal)]);
      job.signal.throwIfAborted();
    } catch (error) {
      done();
      throw error;
    }
    this.turns.set(job.id, done);
    return this.writes.runImport(job, work);
  }

  /** Ends the job, and stores its end (then the next job may have the writer). */
  async finish(job: ImportJob, end: JobEnd): Promise<void> {
    job.end(end);
    this.keep(job);
    try {
      await this.writes.record(job);
      // Its end is stored: its journal file has served.
      await this.journalled.get(job.id)?.end();
      this.journalled.delete(job.id);
    } catch (error) {
      this.notStored(job, error);
    } finally {
      this.turns.get(job.id)?.();
      this.turns.delete(job.id);
    }
  }

  /**
   * Ends an import that failed or was cancelled: its job, if any, and the log of one that was to
   * commit (`failed`), stored as failed: this is its only writer. With no import writing, the log is
   * stored before the job ends, so that its end names a stored log; else the job ends at once, and
   * its log is stored once that import ends.
   */
  async fail(job: ImportJob | undefined, error: unknown, failed?: FailedImport): Promise<void> {
    const log = () => failed && this.betweenImports(() => storeFailedImport(this.logs, failed, error));
    const logFirst = !this.importWriting();
    if (logFirst) await log();
    const end = failureEnd(error, failed?.logId ?? null);
    await Promise.all([job && this.finish(job, end), logFirst ? undefined : log()]);
  }

  /** Whether an import writes now: a write of the serving thread would wait for it to end. */
  importWriting(): boolean {
    return this.writes.importWriting;
  }

  /** Runs a write of the serving thread's once no import of this process writes. */
  betweenImports<T>(write: () => Promise<T>): Promise<T> {
    return this.writes.betweenImports(write);
  }

  /** The job, if `viewer` may see it: live (in this process or another worker), else as stored. */
  async get(id: string, viewer: JobViewer): Promise<ImportJobDocument | undefined> {
    const job = this.liveJob(id, viewer);
    if (job !== undefined) return job.document();
    if (this.live.has(id) || this.remote.get(id) !== undefined) return undefined;
    const stored = await this.records.get(id);
    if (stored === undefined || !mayView(viewer, { user: stored.document.user, tokenId: stored.tokenId })) {
      return undefined;
    }
    return stored.document;
  }

  /** The live job (for its events), if `viewer` may see it. */
  liveJob(id: string, viewer: JobViewer): WatchedJob | undefined {
    const job = this.live.get(id);
    if (job !== undefined) return mayView(viewer, job.spec) ? job : undefined;
    const remote = this.remote.get(id);
    return remote !== undefined && mayView(viewer, remote.viewedAs) ? remote : undefined;
  }

  /** Running and recent jobs, newest first: live ones as they are, others as stored. */
  async list(filter: JobFilter, viewer: JobViewer, limit: number): Promise<ImportJobDocument[]> {
    const now = Date.now();
    const documents = new Map<string, ImportJobDocument>();
    for (const job of this.live.values()) {
      const document = job.document(now);
      if (mayView(viewer, job.spec) && matches(document, filter)) documents.set(job.id, document);
    }
    for (const job of this.remote.all()) {
      const document = job.document();
      if (mayView(viewer, job.viewedAs) && matches(document, filter)) documents.set(document.id, document);
    }
    const userFilter = viewer.role === 'ops' ? filter : { ...filter, user: filter.user ?? viewer.user };
    for (const stored of await this.records.find(userFilter, limit + documents.size)) {
      const { document } = stored;
      if (this.live.has(document.id) || this.remote.get(document.id) !== undefined) continue;
      if (mayView(viewer, { user: document.user, tokenId: stored.tokenId }))
        documents.set(document.id, document);
    }
    return [...documents.values()].sort((a, b) => b.started.localeCompare(a.started)).slice(0, limit);
  }

  /**
   * Cancels a job `viewer` may see, and answers once it has stopped; a job of another HTTP worker
   * is cancelled by that worker. Undefined when there is no such job.
   */
  async cancel(id: string, viewer: JobViewer): Promise<CancelResult> {
    const job = this.live.get(id);
    if (job !== undefined) {
      if (!mayView(viewer, job.spec)) return undefined;
      if (job.finished) return alreadyFinished(job.state);
      const ended = new Promise<void>((resolve) => job.once('end', () => resolve()));
      job.cancel('Cancelled by request');
      await ended;
      return { cancelled: job.document() };
    }
    const remote = this.remote.get(id);
    if (remote !== undefined && mayView(viewer, remote.viewedAs)) {
      if (remote.finished) return alreadyFinished(remote.document().state);
      const outcome = await this.channel!.cancel(remote.owner, id, viewer);
      return 'document' in outcome ? { cancelled: outcome.document } : { refused: outcome.error };
    }
    const stored = await this.get(id, viewer);
    if (stored === undefined) return undefined;
    if (FINISHED_STATES.includes(stored.state)) return alreadyFinished(stored.state);
    // Stored as going, yet run by no HTTP worker: a command line's import (or a crashed process's).
    return refused('The import job runs in another process (the command line), which alone may cancel it');
  }

  /** Cancels every job not yet finished (a shutdown's hook): each rolls back. */
  cancelAll(reason: string): void {
    for (const job of this.live.values()) job.cancel(reason);
  }

  /**
   * Tells the other workers of the job as it changes: at most every `PROGRESS_INTERVAL_MS`, and at
   * once when its state changes (so that it ends everywhere when it ends).
   */
  private share(job: ImportJob): void {
    let timer: NodeJS.Timeout | undefined;
    let sentState = job.state;
    const send = () => {
      clearTimeout(timer);
      timer = undefined;
      sentState = job.state;
      this.channel!.publish([{ document: job.document(), tokenId: job.spec.tokenId }]);
    };
    job.on('change', () => {
      if (job.state !== sentState || job.finished) send();
      else timer ??= setTimeout(send, PROGRESS_INTERVAL_MS);
    });
    send();
  }

  private notStored(job: ImportJob, error: unknown): void {
    this.logger.error({ jobId: job.id, state: job.state, err: error, msg: 'Could not store an import job' });
  }

  /** Keeps the latest finished jobs in memory, and drops the older ones (they stay stored). */
  private keep(job: ImportJob): void {
    this.live.delete(job.id);
    this.live.set(job.id, job);
    const finished = [...this.live.values()].filter((each) => each.finished);
    for (const old of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) {
      this.live.delete(old.id);
    }
  }

  private logRunning(): void {
    const now = Date.now();
    for (const job of this.live.values()) {
      if (job.state !== 'running') continue;
      const { progress } = job;
      this.logger.log({
        msg: 'Import running',
        jobId: job.id,
        endpoint: job.spec.endpoint,
        phase: job.phase,
        items: progress.items,
        created: progress.created,
        updated: progress.updated,
        unchanged: progress.unchanged,
        errors: progress.errors,
        bytesRead: progress.bytes.read,
        bytesTotal: progress.bytes.total,
        itemsPerSecond: Math.round(job.rate(now)),
        elapsedSeconds: Math.round((now - job.startedAt) / 1000),
      });
    }
  }
}
