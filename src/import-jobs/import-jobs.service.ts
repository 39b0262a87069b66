import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GraphStore } from '../graph/graph-store';
import { ImportJob, JobEnd, JobSpec } from './import-job';
import { ImportJobRecords, JobFilter } from './import-job-records';
import { ImportJobDocument } from './import-job.types';
import { JobHold, JobHolds } from './job-holds';

/** Finished jobs kept in memory, besides the store's records, for their full documents. */
const FINISHED_KEPT = 100;
/** How often each running import is logged. */
const LOG_INTERVAL_MS = 10_000;

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

function matches(document: ImportJobDocument, filter: JobFilter): boolean {
  return (
    (filter.state === undefined || document.state === filter.state) &&
    (filter.user === undefined || document.user === filter.user) &&
    (filter.endpoint === undefined || document.endpoint === filter.endpoint)
  );
}

/**
 * Every import is a job while it runs (DESIGN.md §4). Jobs run one at a time, in the order they
 * became ready (the store has one writer); each is kept in the store when it starts and when it
 * ends, so that one a stopped process was running is reported interrupted after a restart.
 * `cancelAll` is for a shutdown that must not wait for imports.
 */
@Injectable()
export class ImportJobsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ImportJobs');
  private readonly records: ImportJobRecords;
  private readonly live = new Map<string, ImportJob>();
  /** The end of the last job given the writer: the next starts after it. */
  private writer: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private readonly holds = new JobHolds();
  private ticker?: NodeJS.Timeout;

  constructor(graph: GraphStore) {
    this.records = new ImportJobRecords(graph);
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      const interrupted = await this.records.markInterrupted(new Date().toISOString());
      if (interrupted > 0) {
        this.logger.warn({ jobs: interrupted, msg: 'Imports interrupted by a stop were marked failed' });
      }
    } catch (error) {
      // A store that cannot be read or written starts not ready (readiness says why), not at all.
      this.logger.error({ err: error, msg: 'Could not mark the imports interrupted by a stop' });
    }
    this.ticker = setInterval(() => this.logRunning(), LOG_INTERVAL_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.ticker);
    this.cancelAll('The service is stopping');
  }

  create(spec: JobSpec): ImportJob {
    const job = new ImportJob(randomUUID(), spec, new Date().toISOString());
    job.hold = this.holds.take();
    this.live.set(job.id, job);
    return job;
  }

  /** Jobs waiting for the writer: queued with their bodies received. */
  get queueLength(): number {
    return this.waiting;
  }

  get running(): number {
    return [...this.live.values()].filter((job) => job.state === 'running').length;
  }

  /**
   * Runs `work` once every job before this one has ended; the job is `running` (and stored so)
   * meanwhile. A job cancelled while it waited does not run: `work` is not called and this
   * rejects with the cancellation. `work` ends the job (`finish`) or throws.
   */
  async run<T>(job: ImportJob, work: () => Promise<T>): Promise<T> {
    job.waiting();
    this.waiting++;
    const turn = this.writer.then(async () => {
      this.waiting--;
      job.signal.throwIfAborted();
      job.begin();
      await this.store(job);
      return work();
    });
    this.writer = turn.catch(() => undefined);
    return turn;
  }

  /** Ends the job, and stores its end. */
  async finish(job: ImportJob, end: JobEnd): Promise<void> {
    job.end(end);
    this.keep(job);
    try {
      await this.store(job);
    } catch (error) {
      this.logger.error({ jobId: job.id, err: error, msg: 'Could not store the end of an import job' });
    }
  }

  /** The job, if `viewer` may see it: live, else as stored. */
  async get(id: string, viewer: JobViewer): Promise<ImportJobDocument | undefined> {
    const job = this.live.get(id);
    if (job !== undefined) return mayView(viewer, job.spec) ? job.document() : undefined;
    const stored = await this.records.get(id);
    if (stored === undefined || !mayView(viewer, { user: stored.document.user, tokenId: stored.tokenId })) {
      return undefined;
    }
    return stored.document;
  }

  /** The live job (for its events), if `viewer` may see it. */
  liveJob(id: string, viewer: JobViewer): ImportJob | undefined {
    const job = this.live.get(id);
    return job !== undefined && mayView(viewer, job.spec) ? job : undefined;
  }

  /** Running and recent jobs, newest first: those of this process as they are, others as stored. */
  async list(filter: JobFilter, viewer: JobViewer, limit: number): Promise<ImportJobDocument[]> {
    const now = Date.now();
    const documents = new Map<string, ImportJobDocument>();
    for (const job of this.live.values()) {
      const document = job.document(now);
      if (mayView(viewer, job.spec) && matches(document, filter)) documents.set(job.id, document);
    }
    const userFilter = viewer.role === 'ops' ? filter : { ...filter, user: filter.user ?? viewer.user };
    for (const stored of await this.records.find(userFilter, limit + documents.size)) {
      const { document } = stored;
      const live = this.live.get(document.id);
      if (live !== undefined) continue;
      if (mayView(viewer, { user: document.user, tokenId: stored.tokenId }))
        documents.set(document.id, document);
    }
    return [...documents.values()].sort((a, b) => b.started.localeCompare(a.started)).slice(0, limit);
  }

  /** Cancels a job `viewer` may see; false when there is no such job still going. */
  cancel(id: string, viewer: JobViewer): boolean {
    const job = this.liveJob(id, viewer);
    if (job === undefined || job.finished) return false;
    job.cancel('Cancelled by request');
    return true;
  }

  /** Cancels every job not yet finished (a shutdown's hook): each rolls back. */
  cancelAll(reason: string): void {
    for (const job of this.live.values()) job.cancel(reason);
  }

  /**
   * A test hook: the next job created stops at `point` of its run until released, so that a test
   * can look at a job mid-way without timing it.
   */
  holdNext(point: JobHold['point']): JobHold {
    return this.holds.add(point);
  }

  private async store(job: ImportJob): Promise<void> {
    await this.records.put({ document: job.document(), pid: process.pid, tokenId: job.spec.tokenId });
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
