import { collectionDocument, errorObject, pageCount, paginationLinks } from './jsonapi';

const pageUrl = (page: number) => `https://x.test/search?page=${page}`;

describe('pagination', () => {
  it('counts pages, with one (empty) page for no results', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });

  it('links first and last only when there is one page', () => {
    expect(paginationLinks(1, 1, pageUrl)).toEqual({ first: pageUrl(1), last: pageUrl(1) });
  });

  it('links prev and next around a middle page', () => {
    expect(paginationLinks(2, 3, pageUrl)).toEqual({
      first: pageUrl(1),
      last: pageUrl(3),
      prev: pageUrl(1),
      next: pageUrl(3),
    });
  });

  it('links back to the last page from beyond it', () => {
    expect(paginationLinks(7, 3, pageUrl)).toEqual({ first: pageUrl(1), last: pageUrl(3), prev: pageUrl(3) });
  });

  it('builds a collection document with total and pages, and included only when there is some', () => {
    const document = collectionDocument([], { page: 1, limit: 10, total: 25, pageUrl });
    expect(document.meta).toEqual({ total: 25, pages: 3 });
    expect(document.links.next).toBe(pageUrl(2));
    expect(document).not.toHaveProperty('included');
  });

  it('says when the total is a lower bound, and only then', () => {
    const paging = { page: 1, limit: 10, total: 30, pageUrl };
    expect(collectionDocument([], { ...paging, totalIsLowerBound: true }, [], []).meta).toEqual({
      total: 30,
      pages: 3,
      totalIsLowerBound: true,
      facets: [],
    });
    expect(collectionDocument([], { ...paging, totalIsLowerBound: false }).meta).toEqual({
      total: 30,
      pages: 3,
    });
  });
});

describe('errorObject', () => {
  it('titles the error with the reason phrase and names the parameter', () => {
    expect(errorObject(400, 'bad', 'type')).toEqual({
      status: '400',
      title: 'Bad Request',
      detail: 'bad',
      source: { parameter: 'type' },
    });
  });
});
