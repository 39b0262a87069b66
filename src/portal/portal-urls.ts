import { DEFAULT_LIMIT, SearchParams } from './search-params';

/**
 * The absolute URLs in portal documents, built from the configured public URL only: request
 * headers (`Host`, `X-Forwarded-*`) are client-controlled and never shape a link.
 */
export class PortalUrls {
  readonly base: string;

  constructor(publicUrl: string) {
    this.base = `${publicUrl.replace(/\/+$/, '')}/api/v1`;
  }

  item(id: string): string {
    return `${this.base}/${encodeURIComponent(id)}`;
  }

  itemSearch(id: string): string {
    return `${this.item(id)}/search`;
  }

  /** The search of the items that share a link with the item. */
  related(id: string): string {
    return `${this.item(id)}/related`;
  }

  /**
   * A page of a search at `path` (the whole API's search unless given), with every parameter that
   * shapes the result; default-valued ones are left out.
   */
  searchPage(params: SearchParams, page: number, path = `${this.base}/search`): string {
    const query = new URLSearchParams();
    if (params.q !== undefined) query.set('q', params.q);
    for (const type of params.types) query.append('type', type);
    if (params.sort !== undefined) query.set('sort', params.sort.name);
    for (const [type, names] of Object.entries(params.fields))
      query.set(`fields[${type}]`, names?.join(',') ?? '');
    for (const facet of params.facets) query.append('facet', facet);
    for (const [filter, values] of Object.entries(params.filters)) {
      for (const value of values ?? []) query.append(filter, value);
    }
    if (page !== 1) query.set('page', String(page));
    if (params.limit !== DEFAULT_LIMIT) query.set('limit', String(params.limit));
    const search = query.toString();
    return search === '' ? path : `${path}?${search}`;
  }
}
