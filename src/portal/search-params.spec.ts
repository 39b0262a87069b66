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
  it('defaults to every type, the first page and 20 results', () => {
    expect(parse('')).toEqual({ q: undefined, types: [], page: 1, limit: 20 });
  });

  it('trims the text and treats a blank one as absent', () => {
    expect(parse('q=+Warsaw+ghetto+').q).toBe('Warsaw ghetto');
    expect(parse('q=%20%20').q).toBeUndefined();
  });

  it('collects repeated types once each, in the order given', () => {
    expect(parse('type=Repository&type=Country&type=Repository').types).toEqual(['Repository', 'Country']);
  });

  it('reads page and limit', () => {
    expect(parse('page=3&limit=100')).toMatchObject({ page: 3, limit: 100 });
  });

  it.each([
    ['type=HistoricalAgent', 'type'],
    ['type=Country&type=country', 'type'],
    ['type=', 'type'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=-1', 'page'],
    ['page=1&page=2', 'page'],
    ['page=99999999999999999999', 'page'],
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['limit=', 'limit'],
    ['limit=1e2', 'limit'],
    ['q=a&q=b', 'q'],
    ['include=holder', 'include'],
    ['sort=id', 'sort'],
  ])('rejects %s, naming "%s"', (query, parameter) => {
    expect(parameterRejected(query)).toBe(parameter);
  });

  it('rejects a page whose offset is beyond any safe integer', () => {
    expect(parameterRejected(`page=${Number.MAX_SAFE_INTEGER}&limit=100`)).toBe('page');
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
