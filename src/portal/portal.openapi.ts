import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { FACET_FIELDS } from '../graph/graph-store';
import { COLLECTION_DOCUMENT, ERROR_DOCUMENT, SINGLE_DOCUMENT } from './portal-schemas.openapi';
import { PORTAL_TYPES } from './portal-types';
import { DEFAULT_LIMIT, MAX_LIMIT, SORT_NAMES } from './search-params';

/** OpenAPI descriptions of the portal documents and parameters, for the service's `/docs`. */

/** Sparse fieldsets, on fetches and searches alike. */
const FIELDS_QUERY = ApiQuery({
  name: 'fields',
  required: false,
  style: 'deepObject',
  explode: true,
  schema: {
    type: 'object',
    properties: Object.fromEntries(
      PORTAL_TYPES.map((type) => [type, { type: 'string', description: 'Attribute names, comma-separated' }]),
    ),
    additionalProperties: false,
  },
  description: 'Sparse fieldsets: `fields[Type]=a,b` keeps only those attributes of that type',
});

/** The failures every portal route can answer with. */
export function ApiPortalErrors() {
  return applyDecorators(
    ApiResponse({
      status: 401,
      description: 'Missing or invalid bearer token (with PORTAL_AUTH=token, the default)',
      schema: ERROR_DOCUMENT,
    }),
    ApiResponse({ status: 403, description: 'The token has no portal role', schema: ERROR_DOCUMENT }),
    ApiResponse({
      status: 406,
      description: 'Every JSON:API media range in Accept has parameters',
      schema: ERROR_DOCUMENT,
    }),
    ApiResponse({
      status: 415,
      description: 'The request Content-Type is JSON:API with parameters',
      schema: ERROR_DOCUMENT,
    }),
    ApiResponse({
      status: 429,
      description: 'Over PORTAL_RATE_LIMIT requests a minute for this token (Retry-After says when to retry)',
      schema: ERROR_DOCUMENT,
    }),
  );
}

/** `Accept-Language` and what it does, and the answers for items an import removed. */
export function ApiLanguage() {
  return applyDecorators(
    ApiHeader({
      name: 'Accept-Language',
      required: false,
      description:
        "Orders each resource's descriptions, the best match first, and names countries and languages; " +
        'Content-Language states the language used',
    }),
    ApiResponse({
      status: 301,
      description: 'An import (ead-sync) moved the item: Location is its new URL, with the same query',
    }),
    ApiResponse({
      status: 410,
      description: 'An import (ead-sync) deleted the item: the error says when and which import',
      schema: ERROR_DOCUMENT,
    }),
  );
}

export function ApiNotFound() {
  return ApiResponse({
    status: 404,
    description: 'No item the portal serves has this id',
    schema: ERROR_DOCUMENT,
  });
}

export function ApiFetchResponses() {
  return applyDecorators(
    ApiResponse({
      status: 200,
      description: 'The resource object, as search returns it',
      schema: SINGLE_DOCUMENT,
    }),
    FIELDS_QUERY,
    ApiResponse({
      status: 400,
      description: '`include` given, or `fields` of an unknown type',
      schema: ERROR_DOCUMENT,
    }),
    ApiNotFound(),
  );
}

const FILTER_DESCRIPTIONS = {
  lang: 'Items with a description in this language (ISO 639-2/T, e.g. deu); repeat for several (OR-ed)',
  country: 'Items in this country (ISO 3166-1 alpha-2, lower case); repeat for several (OR-ed)',
  holder: 'Units held by this repository (its id); repeat for several (OR-ed)',
} as const;

/** Query parameters and answers of the searches. */
export function ApiSearch() {
  return applyDecorators(
    ApiQuery({
      name: 'q',
      required: false,
      type: String,
      description:
        'Query: words (each the start of a word, all required), "phrases", prefix*, AND, OR, NOT, -word, ' +
        'parentheses, and field queries name:, scopeAndContent:, identifier:. Blank means everything. ' +
        'The first of repeated values counts. At most PORTAL_MAX_QUERY_LENGTH characters (default 1024) ' +
        'and PORTAL_MAX_QUERY_TERMS words (default 32)',
    }),
    ApiQuery({
      name: 'type',
      required: false,
      enum: PORTAL_TYPES,
      isArray: true,
      description: 'Item types to keep, in any case; repeat the parameter for several (OR-ed)',
    }),
    ApiQuery({
      name: 'page',
      required: false,
      type: Number,
      description: '1-based page number; anything but a positive integer means 1',
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      type: Number,
      description:
        `Results per page (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}: more is served as ${MAX_LIMIT}; ` +
        'anything but a positive integer means the default)',
    }),
    ApiQuery({
      name: 'sort',
      required: false,
      enum: [...SORT_NAMES, ...SORT_NAMES.filter((name) => name !== 'location').map((name) => `-${name}`)],
      description:
        "Order: relevance with q, the most recently updated first without. The reference's names keep its " +
        'meaning (updated: newest first; score: best first; country: by country code; holder: by the name ' +
        'of the holding repository; detail: the most described first; holdings: the most children first); ' +
        '"-" reverses. Its older Solr names (name_sort.asc, lastUpdated.desc, childCount.desc, …) are ' +
        'accepted too.',
    }),
    FIELDS_QUERY,
    ApiQuery({
      name: 'facet',
      required: false,
      enum: FACET_FIELDS,
      isArray: true,
      description:
        'Count the result by these, in meta.facets (the hits meta.total counts: all of them, ' +
        'or the first ones with meta.totalIsLowerBound); repeat for several',
    }),
    ...Object.entries(FILTER_DESCRIPTIONS).map(([name, description]) =>
      ApiQuery({ name, required: false, type: String, isArray: true, description }),
    ),
    ApiResponse({
      status: 200,
      description: 'A page of resource objects with pagination links',
      schema: COLLECTION_DOCUMENT,
    }),
    ApiResponse({
      status: 400,
      description:
        'A malformed query (q) or one over the limits, an unknown type, sort, facet or fields type, or `include`; ' +
        'the error names the parameter',
      schema: ERROR_DOCUMENT,
    }),
  );
}
