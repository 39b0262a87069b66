import {
  DATE_PERIOD_DESCRIPTION,
  DATE_PERIOD_PRECISION,
  DATE_PERIOD_TYPE,
  END_DATE,
  START_DATE,
} from '../../../items/ontology';
import { RawNode } from '../../building/raw-node';

/**
 * The reference's `DateParser`: turns the date fields of a raw node into date periods, removing
 * what it could parse from the node. Three sources, in order: structured `DatePeriod` sub-nodes
 * (EAD 3, EAC), EAD 2002 `unitdate/@normal` values paired with their `unitdate` texts, and the
 * texts themselves matched against the formats archives use (`1939-1945`, `1924-1-1 - 1947-12-31`,
 * `[1924]`, `1906/19`, …). Start and end become full ISO dates; `precision` keeps the granularity.
 */

export type DatePeriodData = Record<string, string>;

/** Fields whose values are dates (the reference's `dates.properties`). */
const DATE_FIELDS = new Set(['creationDate', 'unitDates', 'existDate']);
const UNIT_DATES = 'unitDates';
/** `unitdate/@normal`, captured beside `unitDates` by the EAD 2002 mapping. */
export const UNIT_DATES_NORMAL = 'unitDatesNormal';
export const DATE_PERIOD = 'DatePeriod';
/** EAD 3 `@standarddate` values, carried on a structured date until they replace start and end. */
const START_STANDARD_DATE = 'startStandardDate';
const END_STANDARD_DATE = 'endStandardDate';
const CREATION = 'creation';
const PRECISIONS = new Set(['year', 'quarter', 'month', 'week', 'day']);

// Java's \s (ASCII white space only).
const S = '[ \\t\\n\\x0B\\f\\r]';
const DATE_PATTERNS = [
  '(\\d{4}-\\d{1,2}-\\d{1,2})S?-S?(\\d{4}-\\d{1,2}-\\d{1,2})',
  '(\\d{4}-\\d{1,2}-\\d{1,2})',
  '(\\d{4})S?-S?(\\d{4})',
  '(\\d{4})-\\[(\\d{4})\\]',
  '(\\d{4}s)-\\[(\\d{4}s)\\]',
  '\\[(\\d{4})\\]',
  '(\\d{4})',
  '(\\d{2})th century',
  'S*(\\d{4})S*-S*(\\d{4})',
  'S*(\\d{4})/(\\d{2})',
  'S*(\\d{4})S*/S*(\\d{4})',
  '(\\d{4}-\\d{1,2})/(\\d{4}-\\d{1,2})',
  '(\\d{4}-\\d{1,2}-\\d{1,2})/(\\d{4}-\\d{1,2}-\\d{1,2})',
  '(\\d{4})/(\\d{4}-\\d{1,2}-\\d{1,2})',
].map((pattern) => new RegExp(`^${pattern.replaceAll('S', S)}$`));

const DATE_COMPONENT = /^(\d{4})(-\d{1,2})?(-\d{1,2})?$/;
const NORMAL_DATE_COMPONENT = /^(\d{4})-?(\d{2})?-?(\d{2})?$/;
// What Joda's ISO date-time parser accepts, as far as the reference's inputs go.
const ISO_DATE_TIME =
  /^([+-]?\d{1,9})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:T\d{1,2}(?::?\d{2}(?::?\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
// What SimpleDateFormat("yyyy-MM") and ("yyyy") consume entirely.
const YEAR_MONTH = /^\d+-\d+$/;
const YEAR = /^\d+$/;

export class InvalidDateError extends Error {}

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

function parseIsoDate(text: string): CalendarDate {
  const match = ISO_DATE_TIME.exec(text);
  if (match === null) throw new InvalidDateError(`Not a date: ${text}`);
  const date = { year: Number(match[1]), month: Number(match[2] ?? 1), day: Number(match[3] ?? 1) };
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    throw new InvalidDateError(`Not a date: ${text}`);
  }
  return date;
}

function formatDate({ year, month, day }: CalendarDate): string {
  const yearText = `${year < 0 ? '-' : ''}${String(Math.abs(year)).padStart(4, '0')}`;
  return `${yearText}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A date widened to a full `YYYY-MM-DD`: the first day of its period, or with `endOfPeriod` the
 * last (`1944` → `1944-12-31`, `1944-02` → `1944-02-29`). As in the reference, a year below 100
 * is taken to be in the 1900s. Throws `InvalidDateError` for anything that is not a date.
 */
export function normaliseDate(text: string, endOfPeriod = false): string {
  const key = endOfPeriod ? `${text}/` : text;
  let normalised = normalisedDates.get(key);
  if (normalised === undefined) {
    normalised = widenDate(text, endOfPeriod);
    if (normalisedDates.size >= NORMALISED_DATES_KEPT) normalisedDates.clear();
    normalisedDates.set(key, normalised);
  }
  return normalised;
}

// Finding aids repeat the same few thousand dates: widening each once saves most of the work.
const NORMALISED_DATES_KEPT = 10_000;
const normalisedDates = new Map<string, string>();

function widenDate(text: string, endOfPeriod: boolean): string {
  let date = text;
  let parsed = parseIsoDate(date);
  let normalised = formatDate(parsed);
  if (normalised.startsWith('00')) {
    normalised = `19${normalised.slice(2)}`;
    date = `19${date}`;
  }
  if (!endOfPeriod || date === normalised) return normalised;
  if (YEAR_MONTH.test(date)) {
    parsed = parseIsoDate(date);
    return formatDate({ ...parsed, day: daysInMonth(parsed.year, parsed.month) });
  }
  if (YEAR.test(date)) return formatDate({ year: parseIsoDate(date).year, month: 12, day: 31 });
  return normalised;
}

function inferPrecision(date: string | undefined): string | undefined {
  const match = date === undefined ? null : DATE_COMPONENT.exec(date.trim());
  if (match === null) return undefined;
  return match[3] !== undefined ? 'day' : match[2] !== undefined ? 'month' : 'year';
}

function widen(period: DatePeriodData, field: string, endOfPeriod: boolean): boolean {
  const value = period[field];
  if (value === undefined) return true;
  try {
    period[field] = normaliseDate(value.trim(), endOfPeriod);
    return true;
  } catch (error) {
    if (error instanceof InvalidDateError) return false;
    throw error;
  }
}

/**
 * Sets the period's precision (given, else inferred from its start) and widens its start and
 * end; false when a date could not be widened.
 */
function resolvePrecision(period: DatePeriodData): boolean {
  const given = period[DATE_PERIOD_PRECISION]?.trim();
  const precision = given !== undefined && PRECISIONS.has(given) ? given : inferPrecision(period[START_DATE]);
  if (precision === undefined) delete period[DATE_PERIOD_PRECISION];
  else period[DATE_PERIOD_PRECISION] = precision;
  const startWidened = widen(period, START_DATE, false);
  const endWidened = widen(period, END_DATE, true);
  return startWidened && endWidened;
}

/** A date period from a free-text date, when it matches one of the known formats. */
function matchDate(text: string): DatePeriodData | undefined {
  for (const pattern of DATE_PATTERNS) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const period: DatePeriodData = {
      [START_DATE]: match[1],
      [END_DATE]: match[2] ?? match[1],
      [DATE_PERIOD_DESCRIPTION]: text,
    };
    // A format match that is no valid date is dropped, so that the text is kept instead.
    return resolvePrecision(period) ? period : undefined;
  }
  return undefined;
}

function canonicalNormalComponent(component: string): string | undefined {
  const match = NORMAL_DATE_COMPONENT.exec(component.trim());
  if (match === null) return undefined;
  const [, year, month, day] = match;
  return year + (month === undefined ? '' : `-${month}`) + (day === undefined ? '' : `-${day}`);
}

/** A date period from a `unitdate/@normal` value (`1939/1945`, `19400101/19441231`) and its text. */
function parseNormalUnitDate(normal: string, description: string): DatePeriodData | undefined {
  const trimmed = normal.trim();
  const slash = trimmed.indexOf('/');
  const startText = slash === -1 ? trimmed : trimmed.slice(0, slash);
  const endText = slash === -1 ? undefined : trimmed.slice(slash + 1);
  const start = canonicalNormalComponent(startText);
  const end = endText === undefined ? undefined : canonicalNormalComponent(endText);
  if (start === undefined || (endText !== undefined && end === undefined)) return undefined;
  const period: DatePeriodData = { [START_DATE]: start };
  if (end !== undefined) period[END_DATE] = end;
  period[DATE_PERIOD_DESCRIPTION] = description;
  period[DATE_PERIOD_TYPE] = CREATION;
  return resolvePrecision(period) ? period : undefined;
}

function structuredDates(node: RawNode): DatePeriodData[] {
  const periods = (node.subNodes.get(DATE_PERIOD) ?? []).map((subNode) => {
    const period: DatePeriodData = {};
    for (const [field, value] of subNode.values) period[field] = typeof value === 'string' ? value : value[0];
    for (const [from, to] of [
      [START_STANDARD_DATE, START_DATE],
      [END_STANDARD_DATE, END_DATE],
    ]) {
      if (period[from] !== undefined) period[to] = period[from];
      delete period[from];
    }
    // No text to fall back on: a period whose dates cannot be widened is kept as it is.
    resolvePrecision(period);
    return period;
  });
  node.removeSubNodes(DATE_PERIOD);
  return periods;
}

/** Pairs `unitdate/@normal` values with the `unitdate` texts, when there are as many of each. */
function normalisedUnitDates(node: RawNode): DatePeriodData[] {
  const normals = node.all(UNIT_DATES_NORMAL);
  node.values.delete(UNIT_DATES_NORMAL);
  const texts = node.all(UNIT_DATES);
  if (normals.length === 0 || normals.length !== texts.length) return [];
  const periods: DatePeriodData[] = [];
  const unmatched: string[] = [];
  texts.forEach((text, index) => {
    const period = parseNormalUnitDate(normals[index], text);
    if (period === undefined) unmatched.push(text);
    else periods.push(period);
  });
  if (unmatched.length === 0) node.values.delete(UNIT_DATES);
  else node.set(UNIT_DATES, unmatched.length === 1 ? unmatched[0] : unmatched);
  return periods;
}

/** Each date text of the node's date fields, with its field (a single value splits on commas). */
function dateTexts(node: RawNode): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [field, value] of node.values) {
    if (!DATE_FIELDS.has(field)) continue;
    const parts = typeof value === 'string' ? splitLikeJava(value, ',') : value;
    for (const part of parts) texts.set(part, field);
  }
  return texts;
}

/** Java's `String.split`: trailing empty strings are dropped. */
function splitLikeJava(text: string, separator: string): string[] {
  const parts = text.split(separator);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Puts back, per field, the date texts that no period was made from, joined with ", ". */
function keepUnparsedTexts(
  node: RawNode,
  texts: Map<string, string>,
  periods: readonly DatePeriodData[],
): void {
  const fields = new Set(texts.values());
  for (const period of periods) texts.delete(period[DATE_PERIOD_DESCRIPTION]);
  const unparsed = new Map<string, string[]>();
  for (const [text, field] of texts) {
    const trimmed = text.trim();
    if (trimmed !== '') unparsed.set(field, [...(unparsed.get(field) ?? []), trimmed]);
  }
  for (const field of fields) {
    const remaining = unparsed.get(field);
    if (remaining === undefined) node.values.delete(field);
    else node.set(field, remaining.join(', '));
  }
}

function withoutDuplicates(periods: DatePeriodData[]): DatePeriodData[] {
  if (periods.length < 2) return periods;
  const seen = new Set<string>();
  return periods.filter((period) => {
    const key = JSON.stringify(Object.entries(period).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The node's date periods; what they were made from is removed from the node. */
export function extractDates(node: RawNode): DatePeriodData[] {
  const periods = [...structuredDates(node), ...normalisedUnitDates(node)];
  const texts = dateTexts(node);
  for (const [text, field] of texts) {
    const period = matchDate(text);
    if (period === undefined) continue;
    // unitDates (ISAD(G) 3.1.3) are dates of creation.
    if (field === UNIT_DATES) period[DATE_PERIOD_TYPE] = CREATION;
    periods.push(period);
  }
  keepUnparsedTexts(node, texts, periods);
  return withoutDuplicates(periods);
}
