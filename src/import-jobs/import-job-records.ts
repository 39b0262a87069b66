import { GraphStore } from '../graph/graph-store';
import { jobOf, jobQuery, jobRecord } from './import-job-record';
import { FINISHED_STATES, ImportJobDocument, JobFilter, StoredJob } from './import-job.types';
import type { JournalledJob } from './job-journal';

/** A job whose process stopped before it ended, as it is reported from then on. */
export function interrupted(document: ImportJobDocument, now: string): ImportJobDocument {
  const { progress, phase } = document;
  const reached =
    `it had reached ${progress.items} items (${progress.created} created, ${progress.updated} updated, ` +
    `${progress.unchanged} unchanged) and ${progress.bytes.read} bytes read` +
    (phase === null ? '' : `, ${phase}`);
  return {
    ...document,
    state: 'failed',
    phase: null,
    finished: now,
    elapsedSeconds: Math.max(0, (Date.parse(now) - Date.parse(document.started)) / 1000),
    remainingSeconds: null,
    error: {
      status: 500,
      error: 'Internal Server Error',
      details: `Interrupted: the service stopped before the import ended (${reached}); nothing of it was written`,
    },
  };
}

/** Whether the process `pid` runs (on this machine, where SQLite stores live). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The jobs' repository (their mapper: `import-job-record.ts`). Jobs are kept in the store, so that a job still queued or running when its process stopped is
 * reported, after a restart, as failed (interrupted), and finished jobs stay listed. Written when a
 * job waits for the writer, starts running and ends (`JobRecordWrites` says when): never inside an
 * import's transaction, so a rolled-back import keeps its job.
 */
export class ImportJobRecords {
  constructor(private readonly graph: GraphStore) {}

  /** In one transaction. */
  async put(jobs: StoredJob[]): Promise<void> {
    await this.graph.write((tx) => tx.putRecords(jobs.map(jobRecord)));
  }

  async get(id: string): Promise<StoredJob | undefined> {
    return jobOf(await this.graph.read((tx) => tx.getRecord(id)));
  }

  /** Newest first. */
  async find(filter: JobFilter, limit: number): Promise<StoredJob[]> {
    const { records } = await this.graph.read((tx) => tx.findRecords(jobQuery(filter, limit)));
    return records.flatMap((record) => jobOf(record) ?? []);
  }

  /**
   * The jobs a process that no longer runs (or a process of old with this one's pid) left going:
   * those stored as queued or running, and those only its journal (`JobJournal`) knows of, a job
   * still receiving its body when no write could reach the store. The journal's document is the
   * later one, with the progress the job had reached. Their imports' transactions never
   * committed, so the store holds nothing of them. A journalled job that had ended but whose end
   * was not stored comes back as it ended.
   */
  async left(journalled: JournalledJob[]): Promise<StoredJob[]> {
    const gone = (pid: number) => pid === process.pid || !processRuns(pid);
    const left = new Map<string, StoredJob>();
    for (const state of ['queued', 'running'] as const) {
      for (const job of await this.find({ state }, Number.MAX_SAFE_INTEGER)) {
        if (gone(job.pid)) left.set(job.document.id, job);
      }
    }
    for (const job of journalled) {
      if (!gone(job.pid)) continue;
      const stored = left.get(job.document.id) ?? (await this.get(job.document.id));
      if (stored !== undefined && FINISHED_STATES.includes(stored.document.state)) continue;
      left.set(job.document.id, { ...job, tokenId: job.tokenId ?? stored?.tokenId });
    }
    return [...left.values()];
  }
}

/** Whether a job's document passes `filter`. */
export function matches(document: ImportJobDocument, filter: JobFilter): boolean {
  return (
    (filter.state === undefined || document.state === filter.state) &&
    (filter.user === undefined || document.user === filter.user) &&
    (filter.endpoint === undefined || document.endpoint === filter.endpoint)
  );
}
