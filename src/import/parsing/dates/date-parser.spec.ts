import { DATE_PERIOD, DatePeriodData, extractDates, normaliseDate, UNIT_DATES_NORMAL } from './date-parser';
import { RawNode } from '../../building/raw-node';

/** Cases from the reference's DateParserTest, plus the formats of the reference's importers. */

function node(values: Record<string, string | string[]>): RawNode {
  const raw = new RawNode();
  for (const [field, value] of Object.entries(values)) raw.set(field, value);
  return raw;
}

function onlyPeriod(raw: RawNode): DatePeriodData {
  const periods = extractDates(raw);
  expect(periods).toHaveLength(1);
  return periods[0];
}

describe('extractDates from free text', () => {
  it.each([
    ['1944', '1944-01-01', '1944-12-31', 'year'],
    ['1939-1945', '1939-01-01', '1945-12-31', 'year'],
    ['1939 - 1945', '1939-01-01', '1945-12-31', 'year'],
    ['[1924]', '1924-01-01', '1924-12-31', 'year'],
    ['1924-[1947]', '1924-01-01', '1947-12-31', 'year'],
    ['1924-1-1 - 1947-12-31', '1924-01-01', '1947-12-31', 'day'],
    ['1939-4-1 - 1945-6-30', '1939-04-01', '1945-06-30', 'day'],
    ['1943-1-1', '1943-01-01', '1943-01-01', 'day'],
    ['1906/19', '1906-01-01', '1919-12-31', 'year'],
    ['1939/1945', '1939-01-01', '1945-12-31', 'year'],
    ['1939-04/1945-06', '1939-04-01', '1945-06-30', 'month'],
    ['1944-02/1944-02', '1944-02-01', '1944-02-29', 'month'],
    ['1939/1945-05-08', '1939-01-01', '1945-05-08', 'year'],
  ])('reads %j as %s to %s (%s)', (text, start, end, precision) => {
    expect(onlyPeriod(node({ unitDates: text }))).toEqual({
      startDate: start,
      endDate: end,
      precision,
      description: text,
      type: 'creation',
    });
  });

  it('keeps text that is no date, and drops what it parsed', () => {
    const unparsed = node({ unitDates: 'not a date at all' });
    expect(extractDates(unparsed)).toEqual([]);
    expect(unparsed.values.get('unitDates')).toBe('not a date at all');
    const parsed = node({ unitDates: '1939-1945' });
    extractDates(parsed);
    expect(parsed.values.has('unitDates')).toBe(false);
  });

  it('rejects a match that is not a valid date, keeping the text', () => {
    const raw = node({ unitDates: '1944-2-30' });
    expect(extractDates(raw)).toEqual([]);
    expect(raw.values.get('unitDates')).toBe('1944-2-30');
  });

  it('splits a single text on commas without trimming, and keeps the rest trimmed', () => {
    expect(extractDates(node({ unitDates: '1934,1978' }))).toHaveLength(2);
    const spaced = node({ unitDates: '1934, 1978' });
    expect(extractDates(spaced).map((period) => period.description)).toEqual(['1934']);
    expect(spaced.values.get('unitDates')).toBe('1978');
    const partial = node({ unitDates: '1934, not parseable' });
    expect(extractDates(partial)).toHaveLength(1);
    expect(partial.values.get('unitDates')).toBe('not parseable');
  });

  it('marks only unitDates as dates of creation', () => {
    const periods = extractDates(node({ unitDates: '1934', existDate: '1900' }));
    expect(periods.find((period) => period.description === '1934')?.type).toBe('creation');
    expect(periods.find((period) => period.description === '1900')?.type).toBeUndefined();
  });

  it('reads each of several texts, and one period per distinct date', () => {
    const periods = extractDates(node({ unitDates: ['1939-1945', '1950', '1950'] }));
    expect(periods.map((period) => period.description)).toEqual(['1939-1945', '1950']);
  });
});

describe('extractDates from unitdate/@normal', () => {
  it('pairs normal values with texts and infers the precision', () => {
    const raw = node({ unitDates: '1933', [UNIT_DATES_NORMAL]: '1933' });
    expect(onlyPeriod(raw)).toEqual({
      startDate: '1933-01-01',
      precision: 'year',
      description: '1933',
      type: 'creation',
    });
    expect(raw.values.has(UNIT_DATES_NORMAL)).toBe(false);
    expect(raw.values.has('unitDates')).toBe(false);
  });

  it('splits a range on the slash and accepts the compact form', () => {
    expect(
      onlyPeriod(node({ unitDates: '1939-1945', [UNIT_DATES_NORMAL]: '1939-04/1945-06' })),
    ).toMatchObject({
      startDate: '1939-04-01',
      endDate: '1945-06-30',
      precision: 'month',
      description: '1939-1945',
    });
    expect(
      onlyPeriod(node({ unitDates: '1940-1944', [UNIT_DATES_NORMAL]: '19400101/19441231' })),
    ).toMatchObject({
      startDate: '1940-01-01',
      endDate: '1944-12-31',
      precision: 'day',
    });
  });

  it('falls back to the texts when the counts differ, and keeps what is left', () => {
    const raw = node({ unitDates: ['1939-1945', 'circa 1978'], [UNIT_DATES_NORMAL]: '1939/1945' });
    expect(extractDates(raw).map((period) => period.description)).toEqual(['1939-1945']);
    expect(raw.values.get('unitDates')).toBe('circa 1978');
    expect(raw.values.has(UNIT_DATES_NORMAL)).toBe(false);
  });

  it('falls back to the text for a value it cannot read', () => {
    const raw = node({ unitDates: '1924-1-1 - 1947-12-31', [UNIT_DATES_NORMAL]: '1924-1-1/1947-12-31' });
    expect(onlyPeriod(raw)).toMatchObject({
      startDate: '1924-01-01',
      endDate: '1947-12-31',
      precision: 'day',
    });
    const garbage = node({ unitDates: 'not a real date', [UNIT_DATES_NORMAL]: 'garbage' });
    expect(extractDates(garbage)).toEqual([]);
    expect(garbage.values.get('unitDates')).toBe('not a real date');
  });
});

describe('extractDates from structured sub-nodes', () => {
  function withPeriod(values: Record<string, string>): RawNode {
    const raw = new RawNode();
    raw.addSubNode(DATE_PERIOD, node(values));
    return raw;
  }

  it('widens the dates and uses the standard dates when given', () => {
    expect(onlyPeriod(withPeriod({ startDate: '1939', endDate: '1945' }))).toEqual({
      startDate: '1939-01-01',
      endDate: '1945-12-31',
      precision: 'year',
    });
    expect(onlyPeriod(withPeriod({ startStandardDate: '1939-04', endStandardDate: '1945-06' }))).toEqual({
      startDate: '1939-04-01',
      endDate: '1945-06-30',
      precision: 'month',
    });
  });

  it('keeps an explicit precision and leaves a date it cannot widen as it is', () => {
    expect(onlyPeriod(withPeriod({ startDate: '1939-04', precision: 'quarter' })).precision).toBe('quarter');
    expect(onlyPeriod(withPeriod({ startDate: 'circa 1939' }))).toEqual({ startDate: 'circa 1939' });
  });
});

describe('normaliseDate', () => {
  it.each([
    ['1944', false, '1944-01-01'],
    ['1944-01', false, '1944-01-01'],
    ['1944-06-15', false, '1944-06-15'],
    ['1944', true, '1944-12-31'],
    ['1944-01', true, '1944-01-31'],
    ['1900-2', true, '1900-02-28'],
    ['1944-06-15', true, '1944-06-15'],
    ['1944-6-15', true, '1944-06-15'],
    ['19', false, '1919-01-01'],
    ['19', true, '1919-12-31'],
    ['2014-11-11T15:20:54', true, '2014-11-11'],
  ])('widens %j (end of period: %s) to %s', (date, end, expected) => {
    expect(normaliseDate(date, end)).toBe(expected);
  });

  it('refuses what is not a date', () => {
    expect(() => normaliseDate('1944-13')).toThrow('Not a date');
    expect(() => normaliseDate('1920s')).toThrow('Not a date');
  });
});
