/**
 * The parts of the service's answers that the console reads: the server's own shapes, imported as
 * types only (the browser loads none of the server's modules).
 */
import type { ImportJobDocument, JobState } from '../../import-jobs/import-job.types';
import type {
  ErrorBody,
  ImportLogDocument,
  ImportLogListItem,
  ImportLogRecord,
  ImportOutcomeName,
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

/** Every outcome a log can have, in words; keyed by the server's outcomes, so a new one fails to compile until named. */
export const OUTCOME_WORDS: Record<ImportOutcomeName, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

/** An error answer in its own words: its message rather than the status's phrase, with where it happened. */
export function errorWords(error: ErrorBody): string {
  const details = error.details;
  if (typeof details === 'string') return details || error.error;
  const message = details.message || error.error;
  // Parsers often say the line and column in the message already.
  const where = [
    details.key !== undefined && !message.includes(details.key) ? details.key : undefined,
    details.line !== undefined && !message.includes(`line ${details.line}`)
      ? `line ${details.line}`
      : undefined,
    details.column !== undefined && !message.includes(`column ${details.column}`)
      ? `column ${details.column}`
      : undefined,
  ].filter(Boolean);
  return where.length > 0 ? `${message} (${where.join(', ')})` : message;
}
