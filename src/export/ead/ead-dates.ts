import { Bundle, Props } from '../../items/bundle';
import { DATE_PERIOD_DESCRIPTION, DATE_PERIOD_PRECISION, END_DATE, START_DATE } from '../../items/ontology';
import { extractDates, UNIT_DATES_NORMAL } from '../../import/parsing/dates/date-parser';
import { RawNode } from '../../import/building/raw-node';
import { storedValue } from '../../import/building/node-properties';

const UNIT_DATES = 'unitDates';

/** One `did/unitdate` element: its text and its `normal` attribute. */
export interface UnitDate {
  text: string;
  normal?: string;
}

/** `1939/1945`, `1939-09/1945-05` or `1939-09-01/1945-05-08`, as the period's precision says. */
function normalOf(period: Props): string | undefined {
  const start = period[START_DATE];
  const end = period[END_DATE];
  if (typeof start !== 'string') return undefined;
  const length =
    period[DATE_PERIOD_PRECISION] === 'year' ? 4 : period[DATE_PERIOD_PRECISION] === 'month' ? 7 : 10;
  return typeof end === 'string'
    ? `${start.slice(0, length)}/${end.slice(0, length)}`
    : start.slice(0, length);
}

function textOf(period: Props): string {
  const description = period[DATE_PERIOD_DESCRIPTION];
  if (typeof description === 'string' && description !== '') return description;
  return [period[START_DATE], period[END_DATE]].filter((date) => typeof date === 'string').join('/');
}

function canonical(props: Props): string {
  return JSON.stringify(Object.entries(props).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Whether the import reads `dates` back into these periods and this `unitDates` value: the
 * import's own date parser decides, so the export never guesses at its rules.
 */
function readsBack(dates: readonly UnitDate[], periods: readonly Props[], unitDates: unknown): boolean {
  const node = new RawNode(false);
  for (const date of dates) {
    node.put(UNIT_DATES, date.text);
    if (date.normal !== undefined) node.put(UNIT_DATES_NORMAL, date.normal);
  }
  const read = extractDates(node).map(canonical).sort();
  const left = node.values.get(UNIT_DATES);
  const leftStored =
    left === undefined ? undefined : storedValue('DocumentaryUnitDescription', UNIT_DATES, left);
  const expected = periods.map(canonical).sort();
  return (
    JSON.stringify(read) === JSON.stringify(expected) &&
    JSON.stringify(leftStored) === JSON.stringify(unitDates)
  );
}

/**
 * The `unitdate` elements of a description: its date periods and the date texts no period was
 * made of (`unitDates`). Each period is written with its text and a `normal` value, as the
 * reference writes them; where the import would read those back otherwise (a text left over, which
 * would unpair the `normal` values from the texts), the texts alone, which it parses again.
 */
export function unitDates(description: Bundle): UnitDate[] {
  const periods = (description.relations.hasDate ?? []).map((date) => date.data);
  const stored = description.data[UNIT_DATES];
  const texts = stored === undefined ? [] : Array.isArray(stored) ? stored.map(String) : [String(stored)];
  const withNormals = periods.map((period): UnitDate => {
    const normal = normalOf(period);
    return normal === undefined ? { text: textOf(period) } : { text: textOf(period), normal };
  });
  const paired = [...withNormals, ...texts.map((text) => ({ text }))];
  if (readsBack(paired, periods, stored)) return paired;
  const plain = [...periods.map((period) => ({ text: textOf(period) })), ...texts.map((text) => ({ text }))];
  if (readsBack(plain, periods, stored)) return plain;
  return texts.length === 0 ? withNormals : plain;
}
