import type { ErrorBody } from '../../import-logs/import-log.types';
import type { AppConfig } from '../../config/app-config';
import type { ProgressReport } from '../../import-jobs/import-job.types';
import type { ImportTask, ImportTaskResult } from './import-task';

/** What the import worker is started with: the configuration of the process that starts it. */
export interface ImportWorkerInput {
  config: AppConfig;
}

export type ToImportWorker =
  | { type: 'run'; task: ImportTask }
  /** Stop the run in progress, rolling it back. */
  | { type: 'cancel'; reason: string; interrupted: boolean }
  /** Go on past the first batch (`RunControl.firstBatchWritten`). */
  | { type: 'go-on' };

export type FromImportWorker =
  /** The worker has opened the store and loaded the formats: it takes runs. */
  | { type: 'ready' }
  | { type: 'progress'; report: ProgressReport }
  /** The run has written its first batch, and waits to be told to go on. */
  | { type: 'first-batch' }
  | { type: 'done'; result: ImportTaskResult }
  /** The run failed (and rolled back); `cancelled` when a cancel stopped it. */
  | { type: 'failed'; error: ErrorBody; cancelled: boolean };
