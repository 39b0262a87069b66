import { BadRequestException } from '@nestjs/common';
import { PORTAL_TYPES, PortalType, isPortalType } from './portal-types';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** JSON:API features this API does not implement; a request using them is refused, not half-served. */
const UNSUPPORTED_PARAMETERS = ['include', 'sort'] as const;

export interface SearchParams {
  /** Trimmed free text; absent when blank. */
  q?: string;
  /** Types to keep, OR-ed, in the order first given; empty means every portal type. */
  types: PortalType[];
  /** 1-based. */
  page: number;
  limit: number;
}

/** Bounds on `q` (`PORTAL_MAX_QUERY_LENGTH`, `PORTAL_MAX_QUERY_TERMS`). */
export interface QueryLimits {
  maxQueryLength: number;
  maxQueryTerms: number;
}

/** What both stores' full-text indexes take as words: each becomes a prefix query of its own. */
const QUERY_TERM = /[\p{L}\p{N}\p{M}]+/gu;

/** A 400 that names the offending query parameter (JSON:API `source.parameter`). */
export class InvalidParameterException extends BadRequestException {
  constructor(
    readonly parameter: string,
    detail: string,
  ) {
    super(detail);
  }
}

export function rejectUnsupportedParameters(query: URLSearchParams): void {
  for (const name of UNSUPPORTED_PARAMETERS) {
    if (query.has(name)) throw new InvalidParameterException(name, `"${name}" is not supported by this API`);
  }
}

function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new InvalidParameterException(name, `"${name}" may be given only once`);
  return values[0];
}

function positiveInteger(query: URLSearchParams, name: string, fallback: number, max?: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || (max !== undefined && value > max)) {
    const range = max === undefined ? 'a positive integer' : `an integer from 1 to ${max}`;
    throw new InvalidParameterException(name, `"${name}" must be ${range}, got "${raw}"`);
  }
  return value;
}

function parseTypes(query: URLSearchParams): PortalType[] {
  const types: PortalType[] = [];
  for (const value of query.getAll('type')) {
    if (!isPortalType(value)) {
      throw new InvalidParameterException(
        'type',
        `unknown type "${value}"; expected one of ${PORTAL_TYPES.join(', ')}`,
      );
    }
    if (!types.includes(value)) types.push(value);
  }
  return types;
}

/** The text, refused when it asks more than a search may (its words are counted, not parsed). */
function boundedText(query: URLSearchParams, limits: QueryLimits): string | undefined {
  const q = single(query, 'q')?.trim();
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

export function parseSearchParams(query: URLSearchParams, limits: QueryLimits): SearchParams {
  rejectUnsupportedParameters(query);
  const q = boundedText(query, limits);
  const limit = positiveInteger(query, 'limit', DEFAULT_LIMIT, MAX_LIMIT);
  const page = positiveInteger(query, 'page', 1);
  if (!Number.isSafeInteger((page - 1) * limit)) {
    throw new InvalidParameterException('page', `"page" ${page} is beyond any result`);
  }
  return { q: q === '' ? undefined : q, types: parseTypes(query), page, limit };
}
