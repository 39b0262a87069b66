import { RecordNode, RecordQuery } from '../graph/records';
import { ImportJobDocument, JobFilter, StoredJob } from './import-job.types';

/** How a job is stored: a record of this type under the job's id, its document as JSON text. */
export const IMPORT_JOB_RECORD_TYPE = 'ImportJob';

export function jobRecord(job: StoredJob): RecordNode {
  const { document } = job;
  const props: RecordNode['props'] = {
    endpoint: document.endpoint,
    user: document.user,
    state: document.state,
    started: document.started,
    pid: job.pid,
    document: JSON.stringify(document),
  };
  if (job.tokenId !== undefined) props.tokenId = job.tokenId;
  return { id: document.id, type: IMPORT_JOB_RECORD_TYPE, props };
}

/** The job a record holds; undefined for any other record. */
export function jobOf(node: RecordNode | undefined): StoredJob | undefined {
  if (node?.type !== IMPORT_JOB_RECORD_TYPE) return undefined;
  const { props } = node;
  return {
    document: JSON.parse(String(props.document)) as ImportJobDocument,
    pid: Number(props.pid),
    tokenId: typeof props.tokenId === 'string' ? props.tokenId : undefined,
  };
}

/** The query of the jobs `filter` keeps, newest first. */
export function jobQuery(filter: JobFilter, limit: number): RecordQuery {
  const equals: RecordNode['props'] = {};
  for (const name of ['state', 'user', 'endpoint'] as const) {
    if (filter[name] !== undefined) equals[name] = filter[name];
  }
  return { type: IMPORT_JOB_RECORD_TYPE, equals, orderBy: { property: 'started', descending: true }, limit };
}
