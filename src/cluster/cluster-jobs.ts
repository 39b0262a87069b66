import cluster, { Worker } from 'node:cluster';
import type { ErrorBody } from '../import-logs/import-log.types';
import { FINISHED_STATES, ImportJobDocument } from '../import-jobs/import-job.types';

/**
 * Import jobs across the HTTP workers (`HTTP_WORKERS` > 1): each worker sends its jobs' documents
 * to the primary as they change, which passes them on to the other workers, so that every worker
 * serves every job's live progress; a cancel reaching a worker that does not run the job is passed
 * to the one that does, through the primary, and its answer back.
 */

/** A job as another worker holds it: its document, and the token that started it (who may see it). */
export interface SharedJob {
  document: ImportJobDocument;
  tokenId?: string;
}

/** Who asks for a cancel, as the job's owner checks it. */
export interface CancelViewer {
  role: string;
  user?: string;
  tokenId?: string;
}

/** How a cancel passed to the owner ended: the job, cancelled, or the error to answer. */
export type CancelOutcome = { document: ImportJobDocument } | { error: ErrorBody };

type JobsMessage =
  /** Worker → primary → the other workers: these jobs of `pid` as they are now. */
  | { clusterJobs: 'update'; pid: number; jobs: SharedJob[] }
  /** Primary → workers: the worker `pid` has exited; its jobs are no longer live. */
  | { clusterJobs: 'gone'; pid: number }
  /** Worker `from` → primary → worker `owner`: cancel `jobId` for `viewer`. */
  | { clusterJobs: 'cancel'; id: number; from: number; owner: number; jobId: string; viewer: CancelViewer }
  /** Worker `owner` → primary → worker `to`: how cancel `id` ended. */
  | { clusterJobs: 'cancelled'; id: number; to: number; outcome: CancelOutcome };

/**
 * A message that could not be sent, its channel closing (a worker stopping): there is no one left
 * to tell. Without a callback the error would be an 'error' event that nothing handles.
 */
function notDelivered(): void {}

function isJobsMessage(message: unknown): message is JobsMessage {
  return typeof message === 'object' && message !== null && 'clusterJobs' in message;
}

/** The answer to a cancel whose job's process stopped before it answered. */
const OWNER_STOPPED: CancelOutcome = {
  error: { status: 409, error: 'Conflict', details: 'The process that ran the import job has stopped' },
};

/**
 * The primary's part: passes workers' job updates on to the others, and cancels to the worker that
 * owns the job. It keeps each worker's jobs still going, for a worker that starts later.
 */
export function relayClusterJobs(): void {
  /** Jobs not finished, by worker pid, then job id. */
  const going = new Map<number, Map<string, SharedJob>>();
  const workerOf = (pid: number) =>
    Object.values(cluster.workers ?? {}).find((worker) => worker?.process.pid === pid);
  const send = (worker: Worker | undefined, message: JobsMessage) => {
    if (worker?.isConnected()) worker.send(message, notDelivered);
  };
  const others = (pid: number | undefined) =>
    Object.values(cluster.workers ?? {}).filter(
      (worker) => worker !== undefined && worker.process.pid !== pid,
    );

  cluster.on('online', (worker: Worker) => {
    for (const [pid, jobs] of going) {
      if (jobs.size > 0) send(worker, { clusterJobs: 'update', pid, jobs: [...jobs.values()] });
    }
  });
  cluster.on('exit', (worker: Worker) => {
    const pid = worker.process.pid;
    if (pid === undefined) return;
    going.delete(pid);
    for (const other of others(pid)) send(other, { clusterJobs: 'gone', pid });
  });
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isJobsMessage(message)) return;
    switch (message.clusterJobs) {
      case 'update': {
        const jobs = going.get(message.pid) ?? new Map<string, SharedJob>();
        going.set(message.pid, jobs);
        for (const job of message.jobs) {
          if (FINISHED_STATES.includes(job.document.state)) jobs.delete(job.document.id);
          else jobs.set(job.document.id, job);
        }
        for (const other of others(message.pid)) send(other, message);
        return;
      }
      case 'cancel': {
        const owner = workerOf(message.owner);
        if (owner?.isConnected()) return send(owner, message);
        return send(worker, {
          clusterJobs: 'cancelled',
          id: message.id,
          to: message.from,
          outcome: OWNER_STOPPED,
        });
      }
      case 'cancelled':
        return send(workerOf(message.to), message);
    }
  });
}

/** What a worker does with the other workers' messages. */
export interface ClusterJobsHandlers {
  updated(pid: number, jobs: SharedJob[]): void;
  gone(pid: number): void;
  /** Cancels a job of this worker for a cancel that reached another. */
  cancel(jobId: string, viewer: CancelViewer): Promise<CancelOutcome>;
}

/** A worker's part: sends its jobs' changes, and takes the others'. */
export class ClusterJobsChannel {
  private readonly waiting = new Map<number, { owner: number; resolve: (outcome: CancelOutcome) => void }>();
  private lastId = 0;
  private readonly listener = (message: unknown) => this.receive(message);

  constructor(private readonly handlers: ClusterJobsHandlers) {
    process.on('message', this.listener);
  }

  /** Whether this process is an HTTP worker of a cluster (otherwise there is no one to tell). */
  static available(): boolean {
    return cluster.isWorker && process.send !== undefined;
  }

  publish(jobs: SharedJob[]): void {
    this.send({ clusterJobs: 'update', pid: process.pid, jobs });
  }

  /** Asks the worker `owner` to cancel `jobId`; resolves with its answer. */
  cancel(owner: number, jobId: string, viewer: CancelViewer): Promise<CancelOutcome> {
    const id = ++this.lastId;
    return new Promise((resolve) => {
      this.waiting.set(id, { owner, resolve });
      this.send({ clusterJobs: 'cancel', id, from: process.pid, owner, jobId, viewer });
    });
  }

  close(): void {
    process.off('message', this.listener);
  }

  private receive(message: unknown): void {
    if (!isJobsMessage(message)) return;
    switch (message.clusterJobs) {
      case 'update':
        return this.handlers.updated(message.pid, message.jobs);
      case 'gone':
        this.handlers.gone(message.pid);
        for (const [id, waiting] of this.waiting) {
          if (waiting.owner !== message.pid) continue;
          this.waiting.delete(id);
          waiting.resolve(OWNER_STOPPED);
        }
        return;
      case 'cancel':
        void this.handlers
          .cancel(message.jobId, message.viewer)
          .then((outcome) =>
            this.send({ clusterJobs: 'cancelled', id: message.id, to: message.from, outcome }),
          );
        return;
      case 'cancelled':
        this.waiting.get(message.id)?.resolve(message.outcome);
        this.waiting.delete(message.id);
        return;
    }
  }

  private send(message: JobsMessage): void {
    if (process.connected) process.send?.(message, undefined, undefined, notDelivered);
  }
}
