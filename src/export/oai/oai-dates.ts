import { OaiError } from './oai-errors';

/**
 * OAI-PMH datestamps at this provider's granularity, seconds (`YYYY-MM-DDThh:mm:ssZ`), and the
 * bounds `from` and `until` give as the store's update times, ISO 8601 with milliseconds, which
 * compare as text.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

export type Granularity = 'day' | 'second';

export interface DateBound {
  granularity: Granularity;
  /** The first or the last millisecond the argument names, as `Date.toISOString` writes it. */
  bound: string;
}

/** A `from` or `until` argument; badArgument for any other form or a date that does not exist. */
export function parseDateArgument(name: 'from' | 'until', text: string): DateBound {
  const match = DAY.exec(text) ?? SECOND.exec(text);
  const granularity: Granularity = text.length === 10 ? 'day' : 'second';
  const iso = granularity === 'day' ? `${text}T00:00:00.000Z` : `${text.slice(0, -1)}.000Z`;
  const time = new Date(iso);
  // Date accepts 2024-02-30 and rolls it over: a date it does not write back as given does not exist.
  if (match === null || Number.isNaN(time.getTime()) || time.toISOString() !== iso) {
    throw new OaiError(
      'badArgument',
      `${name}=${JSON.stringify(text)} is not a date (YYYY-MM-DD) or a time (YYYY-MM-DDThh:mm:ssZ) in UTC`,
    );
  }
  if (name === 'from') return { granularity, bound: iso };
  const last = time.getTime() + (granularity === 'day' ? 86_400_000 : 1000) - 1;
  return { granularity, bound: new Date(last).toISOString() };
}

/**
 * The bounds of `from` and `until`, both inclusive; badArgument when they differ in granularity
 * or `from` comes after `until` (§3.3.1).
 */
export function updateBounds(from?: string, until?: string): { from?: string; until?: string } {
  const lower = from === undefined ? undefined : parseDateArgument('from', from);
  const upper = until === undefined ? undefined : parseDateArgument('until', until);
  if (lower && upper && lower.granularity !== upper.granularity) {
    throw new OaiError('badArgument', `from=${from} and until=${until} must have the same granularity`);
  }
  if (lower && upper && lower.bound > upper.bound) {
    throw new OaiError('badArgument', `from=${from} comes after until=${until}`);
  }
  return { from: lower?.bound, until: upper?.bound };
}

/** A stored time as a datestamp: to the second, in UTC. */
export function datestamp(time: string | Date): string {
  const date = typeof time === 'string' ? new Date(time) : time;
  return `${date.toISOString().slice(0, 19)}Z`;
}
