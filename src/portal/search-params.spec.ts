import { InvalidParameterException, parseSearchParams } from './search-params';

function parse(query: string) {
  return parseSearchParams(new URLSearchParams(query));
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
});
