import { applyDecorators } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { PORTAL_TYPES } from './portal-types';
import { DEFAULT_LIMIT, MAX_LIMIT } from './search-params';

/** OpenAPI descriptions of the portal documents and parameters, for the service's `/docs`. */

const LINK: SchemaObject = { type: 'string', format: 'uri' };

const RESOURCE: SchemaObject = {
  type: 'object',
  required: ['id', 'type', 'attributes', 'links'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: [...PORTAL_TYPES] },
    attributes: { type: 'object', description: 'Depends on the type' },
    relationships: {
      type: 'object',
      description: 'Repository: country; DocumentaryUnit: holder, parent ({"data": null} when none)',
    },
    links: { type: 'object', properties: { self: LINK } },
    meta: {
      type: 'object',
      properties: {
        subitems: { type: 'integer', description: 'Number of children in the item scope' },
        updated: { type: 'string', format: 'date-time' },
        search: { ...LINK, description: 'The item-scoped search' },
      },
    },
  },
};

const COLLECTION_DOCUMENT: SchemaObject = {
  type: 'object',
  required: ['data', 'links', 'meta'],
  properties: {
    data: { type: 'array', items: RESOURCE },
    links: {
      type: 'object',
      required: ['first', 'last'],
      properties: { first: LINK, last: LINK, prev: LINK, next: LINK },
    },
    meta: {
      type: 'object',
      properties: { total: { type: 'integer' }, pages: { type: 'integer' } },
    },
    included: { type: 'array', items: RESOURCE, description: 'The scope item of a scoped search' },
  },
};

const SINGLE_DOCUMENT: SchemaObject = {
  type: 'object',
  required: ['data'],
  properties: {
    data: RESOURCE,
    included: { type: 'array', items: RESOURCE, description: 'Holder and parent of a documentary unit' },
  },
};

const ERROR_DOCUMENT: SchemaObject = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['status', 'title'],
        properties: {
          status: { type: 'string' },
          title: { type: 'string' },
          detail: { type: 'string' },
          source: { type: 'object', properties: { parameter: { type: 'string' } } },
          meta: {
            type: 'object',
            required: ['requestId'],
            properties: {
              requestId: {
                type: 'string',
                description: 'The request id (X-Request-Id), as the server logs it',
              },
            },
          },
        },
      },
    },
  },
};

export const INDEX_DOCUMENT: SchemaObject = {
  type: 'object',
  properties: { meta: { type: 'object' }, links: { type: 'object', properties: { self: LINK } } },
};

/** The failures every portal route can answer with. */
export function ApiPortalErrors() {
  return applyDecorators(
    ApiResponse({ status: 401, description: 'Missing or invalid bearer token', schema: ERROR_DOCUMENT }),
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

export function ApiNotFound() {
  return ApiResponse({
    status: 404,
    description: 'No country, repository or documentary unit has this id',
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
    ApiResponse({ status: 400, description: '`include` or `sort` given', schema: ERROR_DOCUMENT }),
    ApiNotFound(),
  );
}

/** Query parameters and answers of the searches. */
export function ApiSearch() {
  return applyDecorators(
    ApiQuery({ name: 'q', required: false, type: String, description: 'Free text; blank means everything' }),
    ApiQuery({
      name: 'type',
      required: false,
      enum: PORTAL_TYPES,
      isArray: true,
      description: 'Item types to keep; repeat the parameter for several (OR-ed)',
    }),
    ApiQuery({ name: 'page', required: false, type: Number, minimum: 1, description: '1-based page number' }),
    ApiQuery({
      name: 'limit',
      required: false,
      type: Number,
      minimum: 1,
      maximum: MAX_LIMIT,
      description: `Results per page (default ${DEFAULT_LIMIT})`,
    }),
    ApiResponse({
      status: 200,
      description: 'A page of resource objects with pagination links',
      schema: COLLECTION_DOCUMENT,
    }),
    ApiResponse({
      status: 400,
      description: 'A malformed parameter, an unknown type, or `include`/`sort`',
      schema: ERROR_DOCUMENT,
    }),
  );
}
