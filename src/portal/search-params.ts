import { FACET_FIELDS, FacetField, SearchOrder } from '../graph/graph-store';
import { TextQuery } from '../graph/text-query';
import { PORTAL_TYPES, PortalType, SEARCHED_TYPES, portalTypeNamed } from './portal-types';
import { InvalidParameterException } from './invalid-parameter';
import { isPlainWords, parseQuery } from './query-syntax';

export { InvalidParameterException };

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** JSON:API features this API does not implement; a request using them is refused, not half-served. */
const UNSUPPORTED_PARAMETERS = ['include'] as const;

/**
 * Sort names: ours (`-` reverses) and the reference's, among them its older Solr names. The
 * reference's own names keep its meaning: `updated` is the most recently updated first, `detail`
 * the most described and `holdings` the most children first.
 */
const SORTS: ReadonlyMap<string, SearchOrder | 'default'> = new Map<string, SearchOrder | 'default'>([
  ['name', { key: 'name', descending: false }],
  ['updated', { key: 'updated', descending: true }],
  ['id', { key: 'id', descending: false }],
  ['score', { key: 'score', descending: false }],
  ['country', { key: 'country', descending: false }],
  ['holder', { key: 'holder', descending: false }],
  ['detail', { key: 'detail', descending: true }],
  ['holdings', { key: 'holdings', descending: true }],
  ['name_sort.asc', { key: 'name', descending: false }],
  ['lastUpdated.desc', { key: 'updated', descending: true }],
  ['identifier.asc', { key: 'id', descending: false }],
  ['isParent.desc,identifier.asc', { key: 'id', descending: false }],
  ['score.desc', { key: 'score', descending: false }],
  ['countryCode.asc', { key: 'country', descending: false }],
  ['repositoryName.asc', { key: 'holder', descending: false }],
  ['charCount.desc', { key: 'detail', descending: true }],
  ['childCount.desc', { key: 'holdings', descending: true }],
  // The reference drops a distance sort without a `latlng` point, which it alone takes.
  ['location', 'default'],
  ['geodist().asc', 'default'],
]);
export const SORT_NAMES = [...SORTS.keys()].filter((name) => !name.includes('.'));

/** The filters of the facets, by parameter: `lang=deu`, `country=nl`, `holder=<repository id>`. */
export const FILTER_PARAMETERS = { lang: 'languages', country: 'countries', holder: 'holders' } as const;
export type FilterParameter = keyof typeof FILTER_PARAMETERS;

export interface SearchParams {
  /** Trimmed free text, as given; absent when blank. */
  q?: string;
  /** The query `q` states when it uses syntax beyond words (fields, phrases, operators). */
  query?: TextQuery;
  /** Types to keep, OR-ed, in the order first given; empty means every searched type. */
  types: PortalType[];
  /** 1-based. */
  page: number;
  limit: number;
  /** The `sort` parameter as given, when it names an order; the order it names. */
  sort?: { name: string; order?: SearchOrder };
  /** Sparse fieldsets: the attributes to keep, by type. */
  fields: Partial<Record<string, string[]>>;
  facets: FacetField[];
  /** Values of `lang`, `country` and `holder`, each OR-ed within and AND-ed across. */
  filters: Partial<Record<FilterParameter, string[]>>;
}

/** Bounds on `q` (`PORTAL_MAX_QUERY_LENGTH`, `PORTAL_MAX_QUERY_TERMS`). */
export interface QueryLimits {
  maxQueryLength: number;
  maxQueryTerms: number;
}

/** What both stores' full-text indexes take as words: each becomes a prefix query of its own. */
const QUERY_TERM = /[\p{L}\p{N}\p{M}]+/gu;

export function rejectUnsupportedParameters(query: URLSearchParams): void {
  for (const name of UNSUPPORTED_PARAMETERS) {
    if (query.has(name)) throw new InvalidParameterException(name, `"${name}" is not supported by this API`);
  }
}

/**
 * A positive integer, or the default when the value is anything else, as the reference reads
 * `page` and `limit`; the first of repeated values counts.
 */
function positiveInteger(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  const value = raw !== null && /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(value) && value >= 1 ? value : fallback;
}

function parseTypes(query: URLSearchParams): PortalType[] {
  const types: PortalType[] = [];
  for (const value of query.getAll('type')) {
    const type = portalTypeNamed(value);
    if (type === undefined) {
      throw new InvalidParameterException(
        'type',
        `unknown type "${value}"; expected one of ${PORTAL_TYPES.join(', ')}`,
      );
    }
    if (!types.includes(type)) types.push(type);
  }
  return types;
}

function parseSort(query: URLSearchParams): SearchParams['sort'] {
  const name = query.get('sort')?.trim();
  if (name === undefined || name === '') return undefined;
  const descending = name.startsWith('-');
  const named = SORTS.get(descending ? name.slice(1) : name);
  if (named === undefined || (descending && named === 'default')) {
    throw new InvalidParameterException(
      'sort',
      `unknown sort "${name}"; expected one of ${SORT_NAMES.join(', ')}, each reversed by a leading "-"`,
    );
  }
  if (named === 'default') return { name };
  return { name, order: { key: named.key, descending: named.descending !== descending } };
}

/** `fields[Type]=a,b`: the type names as the API writes them; every listed attribute name is kept. */
export function parseFields(query: URLSearchParams): SearchParams['fields'] {
  const fields: SearchParams['fields'] = {};
  for (const [key, value] of query) {
    const match = /^fields\[(.*)\]$/.exec(key);
    if (match === null) continue;
    const type = portalTypeNamed(match[1]);
    if (type === undefined) {
      throw new InvalidParameterException(
        key,
        `unknown type "${match[1]}"; expected one of ${PORTAL_TYPES.join(', ')}`,
      );
    }
    const names = value
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    fields[type] = [...new Set([...(fields[type] ?? []), ...names])];
  }
  return fields;
}

function parseFacets(query: URLSearchParams): FacetField[] {
  const facets: FacetField[] = [];
  for (const value of query.getAll('facet')) {
    const facet = FACET_FIELDS.find((name) => name === value.trim());
    if (facet === undefined) {
      throw new InvalidParameterException(
        'facet',
        `unknown facet "${value}"; expected one of ${FACET_FIELDS.join(', ')}`,
      );
    }
    if (!facets.includes(facet)) facets.push(facet);
  }
  return facets;
}

function parseFilters(query: URLSearchParams): SearchParams['filters'] {
  const filters: SearchParams['filters'] = {};
  for (const parameter of Object.keys(FILTER_PARAMETERS) as FilterParameter[]) {
    const values = [
      ...new Set(
        query
          .getAll(parameter)
          .map((value) => value.trim())
          .filter((value) => value !== ''),
      ),
    ];
    if (values.length > 0) filters[parameter] = values;
  }
  return filters;
}

/** The text, refused when it asks more than a search may (its words are counted, not parsed). */
function boundedText(query: URLSearchParams, limits: QueryLimits): string | undefined {
  const q = query.get('q')?.trim();
  if (q === undefined) return undefined;
  if (q.length > limits.maxQueryLength) {
    throw new InvalidParameterException(
      'q',
      `"q" has ${q.length} characters, more than the limit of ${limits.maxQueryLength} (PORTAL_MAX_QUERY_LENGTH)`,
    );
  }
  const terms = q.match(QUERY_TERM)?.length ?? 0;
  if (terms > limits.maxQueryTerms) {
    throw new InvalidParameterException(
      'q',
      `"q" has ${terms} words, more than the limit of ${limits.maxQueryTerms} (PORTAL_MAX_QUERY_TERMS)`,
    );
  }
  return q;
}

/** The first `q`, trimmed, as the reference takes it; its query when it has syntax beyond words. */
function parseText(query: URLSearchParams, limits: QueryLimits): Pick<SearchParams, 'q' | 'query'> {
  const q = boundedText(query, limits);
  if (q === undefined || q === '') return {};
  const parsed = parseQuery(q);
  return parsed === undefined || isPlainWords(q) ? { q } : { q, query: parsed };
}

export function parseSearchParams(query: URLSearchParams, limits: QueryLimits): SearchParams {
  rejectUnsupportedParameters(query);
  const limit = Math.min(positiveInteger(query, 'limit', DEFAULT_LIMIT), MAX_LIMIT);
  let page = positiveInteger(query, 'page', 1);
  // A page no result reaches: its offset must still be a number the stores can take.
  if (!Number.isSafeInteger((page - 1) * limit)) page = 1;
  return {
    ...parseText(query, limits),
    types: parseTypes(query),
    page,
    limit,
    sort: parseSort(query),
    fields: parseFields(query),
    facets: parseFacets(query),
    filters: parseFilters(query),
  };
}

/** The types a search looks at: those asked for, or every type the portal searches. */
export function searchedTypes(params: SearchParams): readonly PortalType[] {
  return params.types.length > 0 ? params.types : SEARCHED_TYPES;
}
