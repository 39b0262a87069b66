import { InvalidParameterException, parseSearchParams } from './search-params';

const LIMITS = { maxQueryLength: 100, maxQueryTerms: 5 };

function parse(query: string) {
  return parseSearchParams(new URLSearchParams(query), LIMITS);
}

function parameterRejected(query: string): string | undefined {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof InvalidParameterException) return error.parameter;
    throw error;
  }
  return undefined;
}

describe('parseSearchParams', () => {
  it('defaults to every type, the first page, 20 results, no sort, fields, facets or filters', () => {
    expect(parse('')).toEqual({
      types: [],
      page: 1,
      limit: 20,
      sort: undefined,
      fields: {},
      facets: [],
      filters: {},
    });
  });

  it('trims the text and treats a blank one as absent', () => {
    expect(parse('q=+Warsaw+ghetto+').q).toBe('Warsaw ghetto');
    expect(parse('q=%20%20').q).toBeUndefined();
  });

  it('takes the first of repeated q, as the reference does', () => {
    expect(parse('q=a&q=b').q).toBe('a');
  });

  it('parses a query with syntax, and leaves plain words as text', () => {
    expect(parse('q=ghetto+warsaw').query).toBeUndefined();
    expect(parse('q=name:ghetto').query).toEqual({ kind: 'words', text: 'ghetto', field: 'name' });
  });

  it('collects repeated types once each, in the order given, whatever their case', () => {
    expect(parse('type=Repository&type=country&type=REPOSITORY').types).toEqual(['Repository', 'Country']);
    expect(parse('type=historicalagent&type=CvocConcept').types).toEqual(['HistoricalAgent', 'CvocConcept']);
  });

  it('reads page and limit', () => {
    expect(parse('page=3&limit=100')).toMatchObject({ page: 3, limit: 100 });
  });

  it('serves a limit above 100 as 100', () => {
    expect(parse('limit=101').limit).toBe(100);
    expect(parse('limit=100000').limit).toBe(100);
  });

  it.each(['0', '-1', 'abc', '1.5', '', '1e2', '99999999999999999999'])(
    'falls back to the default page and limit for %j',
    (value) => {
      expect(parse(`page=${value}&limit=${value}`)).toMatchObject({ page: 1, limit: 20 });
    },
  );

  it('falls back to the first page when the offset is beyond any safe integer', () => {
    expect(parse(`page=${Number.MAX_SAFE_INTEGER}&limit=100`).page).toBe(1);
  });

  it.each([
    ['name', { key: 'name', descending: false }],
    ['-name', { key: 'name', descending: true }],
    ['updated', { key: 'updated', descending: true }],
    ['-updated', { key: 'updated', descending: false }],
    ['id', { key: 'id', descending: false }],
    ['score', { key: 'score', descending: false }],
    ['name_sort.asc', { key: 'name', descending: false }],
    ['lastUpdated.desc', { key: 'updated', descending: true }],
    ['isParent.desc,identifier.asc', { key: 'id', descending: false }],
    ['country', { key: 'country', descending: false }],
    ['-holder', { key: 'holder', descending: true }],
    ['detail', { key: 'detail', descending: true }],
    ['-holdings', { key: 'holdings', descending: false }],
    ['countryCode.asc', { key: 'country', descending: false }],
    ['repositoryName.asc', { key: 'holder', descending: false }],
    ['charCount.desc', { key: 'detail', descending: true }],
    ['childCount.desc', { key: 'holdings', descending: true }],
  ])('reads sort=%s', (name, order) => {
    expect(parse(`sort=${name}`).sort).toEqual({ name, order });
  });

  it('takes a location sort without a point as the default order, as the reference does', () => {
    expect(parse('sort=location').sort).toEqual({ name: 'location' });
  });

  it('reads sparse fieldsets by type, whatever the case of the type', () => {
    expect(parse('fields[Repository]=name,address&fields[documentaryunit]=localId').fields).toEqual({
      Repository: ['name', 'address'],
      DocumentaryUnit: ['localId'],
    });
  });

  it('reads facets and their filters', () => {
    const params = parse('facet=lang&facet=holder&facet=lang&lang=deu&lang=nld&country=nl&holder=nl-niod');
    expect(params.facets).toEqual(['lang', 'holder']);
    expect(params.filters).toEqual({ lang: ['deu', 'nld'], country: ['nl'], holder: ['nl-niod'] });
  });

  it.each([
    ['type=Person', 'type'],
    ['type=', 'type'],
    ['include=holder', 'include'],
    ['sort=shoe-size', 'sort'],
    ['sort=-location', 'sort'],
    ['sort=__proto__', 'sort'],
    ['sort=constructor', 'sort'],
    ['sort=-toString', 'sort'],
    ['facet=colour', 'facet'],
    ['fields[Person]=name', 'fields[Person]'],
    ['q=%22open', 'q'],
    ['q=a+AND', 'q'],
  ])('rejects %s, naming "%s"', (query, parameter) => {
    expect(parameterRejected(query)).toBe(parameter);
  });

  it('refuses a text longer than the limit, or of more words, naming the limit', () => {
    expect(parse(`q=${'a'.repeat(100)}`).q).toHaveLength(100);
    expect(() => parse(`q=${'a'.repeat(101)}`)).toThrow(
      '"q" has 101 characters, more than the limit of 100 (PORTAL_MAX_QUERY_LENGTH)',
    );
    expect(parse('q=one+two+three+four+five').q).toBe('one two three four five');
    // Words as the index cuts them, whatever separates them.
    expect(parameterRejected('q=one,two;three-four.five/six')).toBe('q');
    expect(() => parse('q=a+b+c+d+e+f')).toThrow(
      '"q" has 6 words, more than the limit of 5 (PORTAL_MAX_QUERY_TERMS)',
    );
  });
});
