import { createHash } from 'node:crypto';
import { ImportLogService } from '../import-logs/import-log.service';
import { scopeOf } from '../import/import-params';
import { ImportJobRecords, interrupted, processRuns } from './import-job-records';
import { FINISHED_STATES, ImportJobDocument, StoredJob } from './import-job.types';
import { JobJournal } from './job-journal';

/**
 * The log id of an interrupted job: made from its id, so that HTTP workers starting together, which
 * each find the job left going, store one log, not one each.
 */
function interruptedLogId(jobId: string): string {
  const hex = createHash('sha256').update(`interrupted:${jobId}`).digest('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)].join(
    '-',
  );
}

/**
 * Marks failed (interrupted) every job a stopped process left going (`ImportJobRecords.left`),
 * each keeping its id and the progress it had reached, and stores the import log of each that
 * was to commit (outcome interrupted), its `event`. Returns how many.
 */
export async function markInterrupted(
  records: ImportJobRecords,
  journal: JobJournal,
  logs: ImportLogService,
  now: string,
): Promise<number> {
  const journalled = await journal.all();
  const ended: StoredJob[] = [];
  const logged: ImportJobDocument[] = [];
  for (const job of await records.left(journalled)) {
    if (FINISHED_STATES.includes(job.document.state)) {
      ended.push(job);
      continue;
    }
    const failed = interrupted(job.document, now);
    const document = { ...failed, event: failed.commit ? interruptedLogId(failed.id) : null };
    ended.push({ ...job, document });
    if (document.event !== null) logged.push(document);
  }
  if (ended.length > 0) await records.put(ended);
  for (const document of logged) {
    await logs.write({
      id: document.event!,
      endpoint: document.endpoint,
      parameters: document.parameters,
      user: document.user,
      scope: scopeOf(document.parameters),
      tags: [],
      touched: [],
      outcome: 'interrupted',
      error: document.error ?? undefined,
      started: document.started,
      finished: now,
    });
  }
  for (const job of journalled) {
    if (job.pid === process.pid || !processRuns(job.pid)) await journal.remove(job.document.id);
  }
  return ended.length;
}
