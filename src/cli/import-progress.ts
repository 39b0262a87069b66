import type { ImportJob } from '../import-jobs/import-job';

/** How often a terminal's progress bar is drawn, and a plain progress line written. */
const BAR_INTERVAL_MS = 200;
const LINE_INTERVAL_MS = 2_000;
const BAR_WIDTH = 24;

/** Where progress goes: a terminal (drawn over itself) or a log (one line each time). */
export interface ProgressOutput {
  write(text: string): void;
  isTTY?: boolean;
}

function size(bytes: number): string {
  return bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The job's progress in one line: bytes, items, counts, rate and time left. */
export function progressText(job: ImportJob, now = Date.now()): string {
  const document = job.document(now);
  const { bytes, items, created, updated, unchanged, errors } = document.progress;
  const parts = [
    document.phase ?? document.state,
    bytes.total === null ? size(bytes.read) : `${size(bytes.read)}/${size(bytes.total)}`,
    `${items} items`,
    `${created} created, ${updated} updated, ${unchanged} unchanged` +
      (errors > 0 ? `, ${errors} errors` : ''),
    `${Math.round(job.rate(now))} items/s`,
  ];
  if (document.remainingSeconds !== null) parts.push(`${Math.ceil(document.remainingSeconds)} s left`);
  return parts.join(' | ');
}

function bar(job: ImportJob): string {
  const { read, total } = job.progress.bytes;
  const share = total === null || total === 0 ? 0 : Math.min(read / total, 1);
  const filled = Math.round(share * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%`;
}

/**
 * Shows a job's progress until it ends: on a terminal a bar drawn over itself, otherwise plain
 * lines, one when the phase changes and at most every `LINE_INTERVAL_MS` besides.
 */
export function showProgress(job: ImportJob, output: ProgressOutput): void {
  const tty = output.isTTY === true;
  let last = 0;
  let phase = job.phase;
  const draw = () => {
    // The end draws its own last line.
    if (job.finished) return;
    const now = Date.now();
    const phaseChanged = job.phase !== phase;
    if (!phaseChanged && now - last < (tty ? BAR_INTERVAL_MS : LINE_INTERVAL_MS)) return;
    last = now;
    phase = job.phase;
    if (tty) output.write(`\r${bar(job)} ${progressText(job, now)}\u001b[K`);
    else output.write(`${progressText(job, now)}\n`);
  };
  job.on('change', draw);
  job.once('end', () => {
    job.off('change', draw);
    if (tty) output.write(`\r${bar(job)} ${progressText(job)}\u001b[K\n`);
    else output.write(`${progressText(job)}\n`);
  });
}
