import { Logger } from '@nestjs/common';
import { JobCancelled } from '../../import-jobs/job-cancelled';
import { ImportLogService } from '../../import-logs/import-log.service';
import { ImportOutcomeName } from '../../import-logs/import-log.types';
import { errorBodyOf, ImportInterruptedError } from '../import-errors';
import { RawQuery, scopeOf } from '../import-params';

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

const logger = new Logger('ImportService');

/**
 * Stores the log of a committed import that failed or was cancelled (after its rollback), with its
 * error; never hides the import's own error.
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
