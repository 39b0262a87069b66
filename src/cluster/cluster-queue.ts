import cluster, { Worker } from 'node:cluster';
import { QueueBound, QueueEntry, QueueLimits, QueueRefusal, QueueState } from '../import-jobs/queue-bound';

/**
 * The import queue's bound across the HTTP workers (`HTTP_WORKERS` > 1): one `QueueBound`, in the
 * primary, decides for every worker, so that two workers admitting at once cannot both take the
 * last place. A worker asks and waits for the answer; a worker that exits releases what it held.
 */

type QueueRequest =
  | { clusterQueue: 'admit'; id: number; entry: QueueEntry }
  | { clusterQueue: 'grow'; id: number; jobId: string; bytes: number }
  | { clusterQueue: 'state'; id: number }
  | { clusterQueue: 'release'; jobId: string };

type QueueAnswer = { clusterQueue: 'answer'; id: number; refusal?: QueueRefusal; state?: QueueState };

type QueueMessage = QueueRequest | QueueAnswer;

function isQueueMessage(message: unknown): message is QueueMessage {
  return typeof message === 'object' && message !== null && 'clusterQueue' in message;
}

/** A message that could not be sent (the channel closing): no one is left to tell. */
function notDelivered(): void {}

/** The primary's part: the one bound of the service. Call once, in the primary. */
export function relayClusterQueue(limits: QueueLimits): void {
  const bound = new QueueBound(limits);
  /** The worker (pid) holding each admitted job. */
  const owners = new Map<string, number>();
  const answer = (worker: Worker, message: QueueAnswer) => {
    if (worker.isConnected()) worker.send(message, notDelivered);
  };
  cluster.on('exit', (worker: Worker) => {
    for (const [jobId, pid] of owners) {
      if (pid !== worker.process.pid) continue;
      owners.delete(jobId);
      bound.release(jobId);
    }
  });
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isQueueMessage(message)) return;
    switch (message.clusterQueue) {
      case 'admit': {
        const refusal = bound.admit(message.entry);
        if (refusal === undefined && worker.process.pid !== undefined) {
          owners.set(message.entry.id, worker.process.pid);
        }
        return answer(worker, { clusterQueue: 'answer', id: message.id, refusal });
      }
      case 'grow':
        return answer(worker, {
          clusterQueue: 'answer',
          id: message.id,
          refusal: bound.grow(message.jobId, message.bytes),
        });
      case 'state':
        return answer(worker, { clusterQueue: 'answer', id: message.id, state: bound.state() });
      case 'release':
        owners.delete(message.jobId);
        return bound.release(message.jobId);
      case 'answer':
        return;
    }
  });
}

/** What the import jobs ask of the queue's bound, wherever it is kept. */
export interface QueueAdmission {
  admit(entry: QueueEntry): Promise<QueueRefusal | undefined>;
  grow(jobId: string, bytes: number): Promise<QueueRefusal | undefined>;
  release(jobId: string): void;
  state(): Promise<QueueState>;
  close(): void;
}

/** The bound kept in this process: the service has no other HTTP worker. */
export class LocalQueueAdmission implements QueueAdmission {
  private readonly bound: QueueBound;

  constructor(limits: QueueLimits) {
    this.bound = new QueueBound(limits);
  }

  admit(entry: QueueEntry): Promise<QueueRefusal | undefined> {
    return Promise.resolve(this.bound.admit(entry));
  }

  grow(jobId: string, bytes: number): Promise<QueueRefusal | undefined> {
    return Promise.resolve(this.bound.grow(jobId, bytes));
  }

  release(jobId: string): void {
    this.bound.release(jobId);
  }

  state(): Promise<QueueState> {
    return Promise.resolve(this.bound.state());
  }

  close(): void {}
}

/** A worker's part: asks the primary's bound. */
export class ClusterQueueAdmission implements QueueAdmission {
  private readonly waiting = new Map<number, (answer: QueueAnswer) => void>();
  private lastId = 0;
  private readonly listener = (message: unknown) => {
    if (!isQueueMessage(message) || message.clusterQueue !== 'answer') return;
    this.waiting.get(message.id)?.(message);
    this.waiting.delete(message.id);
  };

  constructor() {
    process.on('message', this.listener);
  }

  async admit(entry: QueueEntry): Promise<QueueRefusal | undefined> {
    return (await this.ask({ clusterQueue: 'admit', id: ++this.lastId, entry })).refusal;
  }

  async grow(jobId: string, bytes: number): Promise<QueueRefusal | undefined> {
    return (await this.ask({ clusterQueue: 'grow', id: ++this.lastId, jobId, bytes })).refusal;
  }

  release(jobId: string): void {
    if (process.connected)
      process.send?.({ clusterQueue: 'release', jobId }, undefined, undefined, notDelivered);
  }

  async state(): Promise<QueueState> {
    const { state } = await this.ask({ clusterQueue: 'state', id: ++this.lastId });
    return state!;
  }

  close(): void {
    process.off('message', this.listener);
  }

  private ask(request: Exclude<QueueRequest, { clusterQueue: 'release' }>): Promise<QueueAnswer> {
    return new Promise((resolve, reject) => {
      if (!process.connected) {
        reject(new Error('The primary process is gone: the import queue cannot be asked'));
        return;
      }
      this.waiting.set(request.id, resolve);
      process.send?.(request, undefined, undefined, (error: Error | null) => {
        if (error === null) return;
        this.waiting.delete(request.id);
        reject(error);
      });
    });
  }
}
