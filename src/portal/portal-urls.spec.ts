import { PortalUrls } from './portal-urls';
import { SearchParams } from './search-params';

const urls = new PortalUrls('https://archive.example.org/');

function params(overrides: Partial<SearchParams>): SearchParams {
  return { types: [], page: 1, limit: 20, fields: {}, facets: [], filters: {}, ...overrides };
}

describe('PortalUrls', () => {
  it('builds item and item-search URLs under /api/v1, escaping the id', () => {
    expect(urls.item('nl-r1-a b')).toBe('https://archive.example.org/api/v1/nl-r1-a%20b');
    expect(urls.itemSearch('nl')).toBe('https://archive.example.org/api/v1/nl/search');
  });

  it('leaves default-valued parameters out of search pages', () => {
    expect(urls.searchPage(params({}), 1)).toBe('https://archive.example.org/api/v1/search');
  });

  it('keeps q, every type and a non-default limit, and sets the page', () => {
    const url = new URL(urls.searchPage(params({ q: 'a&b', types: ['Country', 'Repository'], limit: 5 }), 3));
    expect(url.pathname).toBe('/api/v1/search');
    expect(url.searchParams.get('q')).toBe('a&b');
    expect(url.searchParams.getAll('type')).toEqual(['Country', 'Repository']);
    expect(url.searchParams.get('page')).toBe('3');
    expect(url.searchParams.get('limit')).toBe('5');
  });

  it('keeps sort, sparse fieldsets, facets and filters', () => {
    const url = new URL(
      urls.searchPage(
        params({
          sort: { name: '-name', order: { key: 'name', descending: true } },
          fields: { Repository: ['name', 'address'] },
          facets: ['lang', 'country'],
          filters: { lang: ['deu', 'nld'], holder: ['nl-niod'] },
        }),
        2,
      ),
    );
    expect(url.searchParams.get('sort')).toBe('-name');
    expect(url.searchParams.get('fields[Repository]')).toBe('name,address');
    expect(url.searchParams.getAll('facet')).toEqual(['lang', 'country']);
    expect(url.searchParams.getAll('lang')).toEqual(['deu', 'nld']);
    expect(url.searchParams.getAll('holder')).toEqual(['nl-niod']);
  });

  it('scopes a search page to an item', () => {
    expect(urls.searchPage(params({ q: 'x' }), 2, urls.itemSearch('nl-r1'))).toBe(
      'https://archive.example.org/api/v1/nl-r1/search?q=x&page=2',
    );
  });
});
