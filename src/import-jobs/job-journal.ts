import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ImportJobDocument } from './import-job.types';

/** A job as its journal file keeps it: its document as last noted, and the process that ran it. */
export interface JournalledJob {
  document: ImportJobDocument;
  pid: number;
  tokenId?: string;
}

const SUFFIX = '.json';

/**
 * Each going job's latest document in a small file of its own, outside the store: while an import
 * holds the store's one writer, nothing else is written there, and the import's transaction dies
 * with the process. So a job killed while its body arrived, or mid-commit, is still known at the
 * restart, with the progress it had reached. The folder is named after the store, so that services
 * of other stores sharing the temporary folder never adopt each other's jobs, and is removed when
 * no job is left in it, so that a service at rest leaves nothing in the temporary folder.
 */
export class JobJournal {
  readonly folder: string;

  constructor(tempDir: string, graphUrl: string) {
    const store = createHash('sha256').update(graphUrl).digest('hex').slice(0, 16);
    this.folder = path.join(tempDir, `archive-import-jobs-${store}`);
  }

  /** Writes the job's file whole (a new file renamed over the old, never one half written). */
  async note(job: JournalledJob): Promise<void> {
    const file = this.fileOf(job.document.id);
    const written = `${file}.${process.pid}.tmp`;
    const text = JSON.stringify(job);
    await mkdir(this.folder, { recursive: true });
    // The folder may have been removed, empty, between the two: it is made again.
    await writeFile(written, text).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      await mkdir(this.folder, { recursive: true });
      await writeFile(written, text);
    });
    await rename(written, file);
  }

  async remove(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
    // Only when empty; another job's file (or one being written) keeps it.
    await rmdir(this.folder).catch(() => undefined);
  }

  /** Every job noted and not removed; a file that cannot be read as one is skipped. */
  async all(): Promise<JournalledJob[]> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    const jobs: JournalledJob[] = [];
    for (const name of names.filter((each) => each.endsWith(SUFFIX))) {
      try {
        const job = JSON.parse(await readFile(path.join(this.folder, name), 'utf8')) as JournalledJob;
        if (typeof job.document?.id === 'string' && typeof job.pid === 'number') jobs.push(job);
      } catch {
        // Removed meanwhile, or not a job's: nothing to report of it.
      }
    }
    return jobs;
  }

  private fileOf(id: string): string {
    // Ids are the service's own UUIDs; the name is checked all the same, as it becomes a path.
    if (!/^[\w-]+$/.test(id)) throw new Error(`Not a job id: ${id}`);
    return path.join(this.folder, `${id}${SUFFIX}`);
  }
}

/** A going job's file is written again at most this often while only its progress changes. */
const NOTE_INTERVAL_MS = 1000;

/** What a job's journalling needs of it: its document, told of each change. */
export interface JournalSubject {
  readonly id: string;
  readonly state: string;
  readonly phase: string | null;
  readonly spec: { tokenId?: string };
  document(): ImportJobDocument;
  on(event: 'change', listener: () => void): unknown;
  off(event: 'change', listener: () => void): unknown;
}

/**
 * Keeps `job`'s file in `journal` as the job goes: at once when its state or phase changes, at
 * most every `NOTE_INTERVAL_MS` otherwise. `end` (once its end is in the store) stops and removes
 * the file. Writes run one after another, so that none lands after the removal.
 */
export function journalJob(
  journal: JobJournal,
  job: JournalSubject,
  failed: (error: unknown) => void,
): { end(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let noted = { state: job.state, phase: job.phase };
  let ended = false;
  const queue = (step: () => Promise<void>) => {
    chain = chain.then(step).catch(failed);
    return chain;
  };
  const note = () => {
    clearTimeout(timer);
    timer = undefined;
    if (ended) return;
    noted = { state: job.state, phase: job.phase };
    const document = job.document();
    void queue(() => journal.note({ document, pid: process.pid, tokenId: job.spec.tokenId }));
  };
  const changed = () => {
    if (job.state !== noted.state || job.phase !== noted.phase) note();
    else timer ??= setTimeout(note, NOTE_INTERVAL_MS).unref();
  };
  job.on('change', changed);
  note();
  return {
    end: () => {
      ended = true;
      clearTimeout(timer);
      job.off('change', changed);
      return queue(() => journal.remove(job.id));
    },
  };
}
