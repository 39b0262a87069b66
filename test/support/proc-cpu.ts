import { readFileSync } from 'node:fs';

/** Linux's `USER_HZ`, the unit of `/proc`'s CPU times: 100 on every common architecture. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The user and system CPU time, in microseconds, that a `/proc` stat file (`/proc/<pid>/stat`,
 * `/proc/<pid>/task/<tid>/stat`) reports; undefined where there is none (another system, or the
 * process has exited).
 */
export function procCpuMicros(statFile: string): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(statFile, 'utf8');
  } catch {
    return undefined;
  }
  // Fields 14 and 15 of stat(5) (utime, stime, in clock ticks) follow the parenthesised name.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
}
