import { EventEmitter } from 'node:events';
import type { SharedJob } from '../cluster/cluster-jobs';
import { interrupted } from './import-job-records';
import { FINISHED_STATES, ImportJobDocument } from './import-job.types';

/** Finished jobs of other workers kept, until the store surely has their end. */
const FINISHED_KEPT = 100;

/** A job as its events are streamed: its document now, told of each change, then of its end. */
export interface WatchedJob extends EventEmitter<{ change: []; end: [] }> {
  readonly finished: boolean;
  document(): ImportJobDocument;
}

/** A job another HTTP worker runs, as that worker last sent it (`ClusterJobsChannel`). */
export class RemoteJob extends EventEmitter<{ change: []; end: [] }> implements WatchedJob {
  constructor(
    readonly owner: number,
    public shared: SharedJob,
  ) {
    super();
    // Each watcher of its event stream listens, as many as there are connections to send them.
    this.setMaxListeners(0);
  }

  get finished(): boolean {
    return FINISHED_STATES.includes(this.shared.document.state);
  }

  /** Who may see it, as `mayView` reads a job. */
  get viewedAs(): { user: string; tokenId?: string } {
    return { user: this.shared.document.user, tokenId: this.shared.tokenId };
  }

  document(): ImportJobDocument {
    return this.shared.document;
  }

  update(shared: SharedJob): void {
    if (this.finished) return;
    this.shared = shared;
    this.emit('change');
    if (this.finished) this.emit('end');
  }
}

/** The other workers' jobs, by id: those going, and the latest finished. */
export class RemoteJobs {
  private readonly jobs = new Map<string, RemoteJob>();
  /** Told when no job of another worker runs any more. */
  private idle: (() => void)[] = [];

  get(id: string): RemoteJob | undefined {
    return this.jobs.get(id);
  }

  all(): RemoteJob[] {
    return [...this.jobs.values()];
  }

  /** While a job of another worker runs: resolves once none does. */
  whenNoneRunning(): Promise<void> | undefined {
    if (!this.anyRunning()) return undefined;
    return new Promise((resolve) => this.idle.push(resolve));
  }

  updated(owner: number, shared: SharedJob[]): void {
    for (const each of shared) {
      const known = this.jobs.get(each.document.id);
      if (known !== undefined) known.update(each);
      else this.jobs.set(each.document.id, new RemoteJob(owner, each));
    }
    const finished = this.all().filter((job) => job.finished);
    for (const old of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) {
      this.jobs.delete(old.document().id);
    }
    this.tellIfIdle();
  }

  /**
   * The worker `owner` has stopped: its jobs still going end failed (interrupted), as the store
   * will have them once its replacement starts.
   */
  gone(owner: number): void {
    const now = new Date().toISOString();
    for (const job of this.all()) {
      if (job.owner === owner) job.update({ ...job.shared, document: interrupted(job.document(), now) });
    }
    this.tellIfIdle();
  }

  /** Whether a job of another worker runs. */
  anyRunning(): boolean {
    return this.all().some((job) => job.document().state === 'running');
  }

  private tellIfIdle(): void {
    if (this.idle.length === 0 || this.anyRunning()) return;
    for (const resolve of this.idle) resolve();
    this.idle = [];
  }
}
