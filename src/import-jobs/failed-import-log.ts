import { Logger } from '@nestjs/common';
import { errorBodyOf, ImportInterruptedError } from '../import/import-errors';
import { RawQuery, scopeOf } from '../import/import-params';
import { ImportLogService } from '../import-logs/import-log.service';
import { ImportOutcomeName } from '../import-logs/import-log.types';
import type { JobEnd } from './import-job';
import { JobCancelled } from './job-cancelled';

/** A committed import that did not commit, as far as it got. */
export interface FailedImport {
  logId: string;
  endpoint: string;
  user: string;
  /** The token that acted, when one did. */
  tokenId?: string;
  query: RawQuery;
  started: string;
  /** The tags of the sources it had found. */
  tags: string[];
  /** The request that started it (`X-Request-Id`). */
  requestId?: string;
}

/** How an import that did not succeed ended, by what stopped it: a cancel, a shutdown, or a fault. */
export function outcomeOf(error: unknown): Exclude<ImportOutcomeName, 'succeeded'> {
  if (error instanceof ImportInterruptedError) return 'interrupted';
  return error instanceof JobCancelled ? 'cancelled' : 'failed';
}

const logger = new Logger('ImportJobs');

/** How a job that did not succeed ends; `event`: its log's id when it was to commit. */
export function failureEnd(error: unknown, event: string | null): JobEnd {
  return {
    state: error instanceof JobCancelled ? 'cancelled' : 'failed',
    error: errorBodyOf(error),
    event,
  };
}

/**
 * Stores the log of a committed import that failed or was cancelled (after its rollback), with its
 * error; never hides the import's own error. Only the jobs service calls it (`fail`).
 */
export async function storeFailedImport(
  logs: ImportLogService,
  failed: FailedImport,
  error: unknown,
): Promise<void> {
  try {
    await logs.write({
      id: failed.logId,
      endpoint: failed.endpoint,
      parameters: failed.query,
      user: failed.user,
      tokenId: failed.tokenId,
      requestId: failed.requestId,
      scope: scopeOf(failed.query),
      tags: failed.tags,
      touched: [],
      outcome: outcomeOf(error),
      error: errorBodyOf(error),
      started: failed.started,
      finished: logs.timestamp(),
    });
  } catch (logError) {
    logger.error(`Could not store the log of failed import ${failed.logId}: ${String(logError)}`);
  }
}
