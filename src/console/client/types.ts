/**
 * The parts of the service's answers that the console reads: the server's own shapes, imported as
 * types only (the browser loads none of the server's modules).
 */
import type { ImportJobDocument, JobState } from '../../import-jobs/import-job.types';
import type {
  ImportLogDocument,
  ImportLogListItem,
  ImportLogRecord,
} from '../../import-logs/import-log.types';

export type { ImportJobDocument, ImportLogListItem, ImportLogRecord };

export type IdsByTag = ImportLogDocument['created_keys'];

export interface Page<T> {
  total: number;
  page: number;
  limit: number;
  items: T[];
}

export interface FieldChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

export interface ItemChanges {
  item: string;
  type: string;
  changes: FieldChange[];
}

/** The server's `FINISHED_STATES`, which the browser cannot load; typed by its states, so a renamed one fails to compile. */
export const FINISHED_STATES: readonly JobState[] = ['committed', 'rolled-back', 'failed', 'cancelled'];
