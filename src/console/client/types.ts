/** The parts of the service's answers that the console reads. */

export type IdsByTag = Record<string, string[]>;

export interface ImportLog {
  created: number;
  created_keys: IdsByTag;
  updated: number;
  updated_keys: IdsByTag;
  unchanged: number;
  unchanged_keys: IdsByTag;
  errors: Record<string, string>;
  message: string | null;
  event: string | null;
}

export interface ErrorBody {
  status: number;
  error: string;
  details:
    | string
    | ({ message: string; tag?: string; line?: number; column?: number; key?: string } & Record<
        string,
        unknown
      >);
}

export interface ImportLogRecord {
  id: string;
  endpoint: string;
  parameters: Record<string, string | string[]>;
  user: string;
  scope?: string;
  tags: string[];
  log?: ImportLog;
  changes?: { count: number; truncated: boolean };
  outcome: 'succeeded' | 'failed';
  error?: ErrorBody;
  started: string;
  finished: string;
}

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

export interface JobDocument {
  id: string;
  endpoint: string;
  user: string;
  scope: string | null;
  state: 'queued' | 'running' | 'committed' | 'rolled-back' | 'failed' | 'cancelled';
  phase: string | null;
  progress: {
    sources: { done: number; total: number | null };
    bytes: { read: number; total: number | null };
    items: number;
    created: number;
    updated: number;
    unchanged: number;
    errors: number;
  };
  started: string;
  finished: string | null;
  elapsedSeconds: number;
  remainingSeconds: number | null;
  event: string | null;
  error: ErrorBody | null;
}

export const FINISHED_STATES: readonly JobDocument['state'][] = [
  'committed',
  'rolled-back',
  'failed',
  'cancelled',
];
