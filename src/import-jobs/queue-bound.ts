import type { QueueLimits } from '../config/app-config';

export type { QueueLimits };

/** An import held: its job, its acting user, and the bytes of its body reserved so far. */
export interface QueueEntry {
  id: string;
  user: string;
  bytes: number;
}

/**
 * Why an import is not taken: 429 when its user holds too much (that user alone should wait), 503
 * when the service does (everyone should); `retryAfterSeconds` for the `Retry-After` header.
 */
export interface QueueRefusal {
  status: 429 | 503;
  details: string;
  retryAfterSeconds: number;
}

/** What the queue holds, for readiness and metrics. */
export interface QueueState {
  jobs: number;
  bytes: number;
  /** Why no import is taken now, if none is. */
  full?: string;
}

/** Retry-After is never below this, nor above `MAX_RETRY_AFTER_S`. */
const MIN_RETRY_AFTER_S = 1;
const MAX_RETRY_AFTER_S = 600;
/** Until an import has ended, a guess of how long one holds its place. */
const FIRST_RETRY_AFTER_S = 10;
/** How much each ended import moves the estimate of how long one holds its place. */
const SMOOTHING = 0.2;

/**
 * The bound on imports held (received, queued or running), per acting user and in all, in number
 * and in bytes of their bodies (docs/operations.md). An import is admitted before its body is read, with
 * the bytes its `Content-Length` announces; a body of unknown length reserves more as it arrives
 * (`grow`), and is refused once it passes a bound. `release` ends an entry. One instance decides for
 * a whole service: the process itself, or, with several HTTP workers, the primary process.
 */
export class QueueBound {
  private readonly entries = new Map<string, QueueEntry & { since: number }>();
  /** Seconds an import held its place, smoothed over the recent ones. */
  private heldSeconds = FIRST_RETRY_AFTER_S;

  constructor(private readonly limits: QueueLimits) {}

  /** Admits `entry`, or says why not (and then holds nothing of it). */
  admit(entry: QueueEntry, now = Date.now()): QueueRefusal | undefined {
    const refusal = this.refusal(entry.user, 1, entry.bytes);
    if (refusal === undefined) this.entries.set(entry.id, { ...entry, since: now });
    return refusal;
  }

  /** Reserves `bytes` in all for the entry `id`; refused, the entry keeps what it had. */
  grow(id: string, bytes: number): QueueRefusal | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined || bytes <= entry.bytes) return undefined;
    const refusal = this.refusal(entry.user, 0, bytes - entry.bytes);
    if (refusal === undefined) entry.bytes = bytes;
    return refusal;
  }

  release(id: string, now = Date.now()): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    const seconds = (now - entry.since) / 1000;
    this.heldSeconds += SMOOTHING * (seconds - this.heldSeconds);
  }

  state(): QueueState {
    const jobs = this.entries.size;
    const bytes = this.totalBytes();
    const { maxJobs, maxBytes } = this.limits;
    const full =
      jobs >= maxJobs
        ? `${jobs} imports held, the most IMPORT_QUEUE_MAX_JOBS allows`
        : bytes >= maxBytes
          ? `${bytes} bytes of imports held, the most IMPORT_QUEUE_MAX_BYTES (${maxBytes}) allows`
          : undefined;
    return full === undefined ? { jobs, bytes } : { jobs, bytes, full };
  }

  private refusal(user: string, jobs: number, bytes: number): QueueRefusal | undefined {
    const { maxJobs, maxJobsPerUser, maxBytes, maxBytesPerUser } = this.limits;
    const mine = [...this.entries.values()].filter((entry) => entry.user === user);
    const myBytes = mine.reduce((sum, entry) => sum + entry.bytes, 0);
    if (mine.length + jobs > maxJobsPerUser) {
      return this.refuse(
        429,
        `User ${user} has ${mine.length} imports received, queued or running, the most ` +
          `IMPORT_QUEUE_MAX_JOBS_PER_USER (${maxJobsPerUser}) allows: retry once one has ended`,
      );
    }
    if (myBytes + bytes > maxBytesPerUser) {
      return this.refuse(
        429,
        `User ${user} has ${myBytes} bytes of imports held; ${bytes} more would pass ` +
          `IMPORT_QUEUE_MAX_BYTES_PER_USER (${maxBytesPerUser}): retry once one has ended`,
      );
    }
    if (this.entries.size + jobs > maxJobs) {
      return this.refuse(
        503,
        `The service holds ${this.entries.size} imports, the most IMPORT_QUEUE_MAX_JOBS (${maxJobs}) ` +
          'allows: retry later',
      );
    }
    const total = this.totalBytes();
    if (total + bytes > maxBytes) {
      return this.refuse(
        503,
        `The service holds ${total} bytes of imports; ${bytes} more would pass IMPORT_QUEUE_MAX_BYTES ` +
          `(${maxBytes}): retry later`,
      );
    }
    return undefined;
  }

  private refuse(status: QueueRefusal['status'], details: string): QueueRefusal {
    const seconds = Math.ceil(this.heldSeconds);
    return {
      status,
      details,
      retryAfterSeconds: Math.min(MAX_RETRY_AFTER_S, Math.max(MIN_RETRY_AFTER_S, seconds)),
    };
  }

  private totalBytes(): number {
    let bytes = 0;
    for (const entry of this.entries.values()) bytes += entry.bytes;
    return bytes;
  }
}
