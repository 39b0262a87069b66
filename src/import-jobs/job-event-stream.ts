import type { ServerResponse } from 'node:http';
import { ImportJobDocument } from './import-job.types';
import type { WatchedJob } from './remote-jobs';

/** A progress event is sent at most this often. */
export const PROGRESS_INTERVAL_MS = 500;

function write(response: ServerResponse, event: 'progress' | 'outcome', job: ImportJobDocument): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify(job)}\n\n`);
}

export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  // Proxies that buffer answers (nginx) would hold the events back.
  'X-Accel-Buffering': 'no',
};

/** A finished job's stream: its outcome, at once, and the end. */
export function sendOutcome(response: ServerResponse, job: ImportJobDocument): void {
  write(response, 'outcome', job);
  response.end();
}

/**
 * Server-Sent Events of a job: its progress now and on each change, at most every
 * `PROGRESS_INTERVAL_MS`, then its outcome, which ends the stream. A client that leaves stops it.
 */
export function streamJob(response: ServerResponse, job: WatchedJob): void {
  if (job.finished) return sendOutcome(response, job.document());
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  const progress = () => {
    timer = undefined;
    last = Date.now();
    write(response, 'progress', job.document());
  };
  const changed = () => {
    if (timer !== undefined) return;
    timer = setTimeout(progress, Math.max(0, last + PROGRESS_INTERVAL_MS - Date.now()));
  };
  const ended = () => {
    stop();
    sendOutcome(response, job.document());
  };
  const stop = () => {
    clearTimeout(timer);
    job.off('change', changed);
    job.off('end', ended);
  };
  job.on('change', changed);
  job.once('end', ended);
  response.on('close', stop);
  progress();
}
