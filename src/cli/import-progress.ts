import type { ImportJob } from '../import-jobs/import-job';

/** How often a terminal's line is redrawn, and a plain progress line written. */
const BAR_INTERVAL_MS = 250;
const LINE_INTERVAL_MS = 2_000;
/** The widest bar drawn, and the narrowest worth drawing. */
const MAX_BAR = 30;
const MIN_BAR = 8;
/** The width assumed for a terminal that does not say its own. */
const DEFAULT_COLUMNS = 80;

/** Where progress goes: a terminal (one line drawn over itself, as wide as it is) or a log. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  /** The terminal's width, read at each drawing (it may be resized). */
  columns?: number;
}

function size(bytes: number): string {
  return bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * The job's progress, most telling first: the counts, then its phase, bytes, rate and time left,
 * which a narrow terminal drops from the end.
 */
export function progressParts(job: ImportJob, now = Date.now()): string[] {
  const document = job.document(now);
  const { bytes, items, created, updated, unchanged, errors } = document.progress;
  const parts = [
    `${items} items: ${created} created, ${updated} updated, ${unchanged} unchanged` +
      (errors > 0 ? `, ${errors} errors` : ''),
    document.phase ?? document.state,
    bytes.total === null ? size(bytes.read) : `${size(bytes.read)}/${size(bytes.total)}`,
    `${Math.round(job.rate(now))} items/s`,
  ];
  if (document.remainingSeconds !== null) parts.push(`${Math.ceil(document.remainingSeconds)} s left`);
  return parts;
}

/** The job's progress in one line, as a log gets it. */
export function progressText(job: ImportJob, now = Date.now()): string {
  return progressParts(job, now).join(' | ');
}

/** The share of the bytes read, 0 to 1; null while the total is unknown. */
function shareOf(job: ImportJob): number | null {
  const { read, total } = job.progress.bytes;
  return total === null || total === 0 ? null : Math.min(read / total, 1);
}

/**
 * One line of at most `width - 1` characters (a full line would wrap on some terminals): the
 * parts that fit, in order, and a bar with the percentage in the room left, if there is enough.
 */
export function fitLine(parts: string[], share: number | null, width: number): string {
  const limit = Math.max(width - 1, 1);
  let line = parts[0].length > limit ? `${parts[0].slice(0, limit - 1)}…` : parts[0];
  for (const part of parts.slice(1)) {
    if (line.length + 3 + part.length > limit) break;
    line += ` | ${part}`;
  }
  // " [" + bar + "] 100%"
  const room = limit - line.length - 8;
  if (share === null || room < MIN_BAR) return line;
  const barWidth = Math.min(room, MAX_BAR);
  const filled = Math.round(share * barWidth);
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  return `${line} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${percent}`;
}

/**
 * Shows a job's progress from its start until it ends. On a terminal one line, redrawn in place
 * and as wide as the terminal, also while nothing changes (the rate and time left move);
 * otherwise plain lines, one at the start, when the phase changes and at most every
 * `LINE_INTERVAL_MS` besides.
 */
export function showProgress(job: ImportJob, output: ProgressOutput): void {
  const tty = output.isTTY === true;
  let last = 0;
  let phase = job.phase;
  const line = (now: number) =>
    tty
      ? `\r${fitLine(progressParts(job, now), shareOf(job), output.columns ?? DEFAULT_COLUMNS)}\u001b[K`
      : `${progressText(job, now)}\n`;
  const draw = (force: boolean) => {
    // The end draws its own last line.
    if (job.finished) return;
    const now = Date.now();
    const phaseChanged = job.phase !== phase;
    if (!force && !phaseChanged && now - last < (tty ? BAR_INTERVAL_MS : LINE_INTERVAL_MS)) return;
    last = now;
    phase = job.phase;
    output.write(line(now));
  };
  const onChange = () => draw(false);
  const timer = setInterval(() => draw(false), tty ? BAR_INTERVAL_MS : LINE_INTERVAL_MS);
  // Progress never keeps the process alive.
  timer.unref();
  job.on('change', onChange);
  job.once('end', () => {
    clearInterval(timer);
    job.off('change', onChange);
    output.write(tty ? `${line(Date.now())}\n` : line(Date.now()));
  });
  draw(true);
}
