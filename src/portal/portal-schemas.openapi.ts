import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { FACET_FIELDS } from '../graph/graph-store';
import { PORTAL_TYPES, PortalType, portalTypeDefinition } from './portal-types';
import { LINK, text } from './types/attribute-schemas';
import { PortalRelationship } from './types/portal-type';

/**
 * The OpenAPI schemas of the portal's documents and resource objects, one per type, named like the
 * type so that `PortalResource`'s discriminator needs no mapping. Each type's attributes,
 * relationships and links come from its definition (`types/`). They are the contract with the
 * reference portal's clients (test/openapi-answers.e2e-spec.ts checks real answers against them).
 * No attribute is required: one with no stored value is left out, and `fields[Type]` keeps only the
 * attributes it names; lists are empty rather than left out.
 */

function relationship(related: PortalRelationship): SchemaObject {
  return {
    type: 'object',
    nullable: true,
    description: `${related.description}; null when there is none`,
    required: ['data', 'links'],
    additionalProperties: false,
    properties: {
      data: {
        type: 'object',
        required: ['id', 'type'],
        additionalProperties: false,
        properties: { id: { type: 'string' }, type: { type: 'string', enum: [related.type] } },
      },
      links: {
        type: 'object',
        required: ['related'],
        additionalProperties: false,
        properties: { related: LINK },
      },
    },
  };
}

function resource(type: PortalType): SchemaObject {
  const definition = portalTypeDefinition(type);
  const related = definition.relationships ?? {};
  const names = Object.keys(related);
  const linking = definition.linksRelated === true;
  const properties: Record<string, SchemaObject> = {
    id: { type: 'string', description: 'The item id' },
    type: { type: 'string', enum: [type] },
    attributes: definition.schema,
    links: {
      type: 'object',
      required: ['self', 'search', ...(linking ? ['related'] : [])],
      additionalProperties: false,
      properties: {
        self: LINK,
        search: { ...LINK, description: 'The search within the item' },
        ...(linking ? { related: { ...LINK, description: 'The search of the items linked to it' } } : {}),
        ...Object.fromEntries(
          names.map((name) => [name, { ...LINK, description: 'The related item, when there is one' }]),
        ),
      },
    },
    meta: {
      type: 'object',
      required: ['subitems', 'updated'],
      additionalProperties: false,
      properties: {
        subitems: { type: 'integer', minimum: 0, description: 'Number of children in the item scope' },
        updated: { type: 'string', format: 'date-time', description: 'When an import last changed it' },
      },
    },
  };
  if (names.length > 0) {
    properties.relationships = {
      type: 'object',
      required: names,
      additionalProperties: false,
      properties: Object.fromEntries(names.map((name) => [name, relationship(related[name])])),
    };
  }
  return {
    type: 'object',
    description: `A resource object of type ${type}`,
    required: ['id', 'type', 'attributes', 'links', 'meta', ...(names.length > 0 ? ['relationships'] : [])],
    additionalProperties: false,
    properties,
  };
}

function component(name: string): ReferenceObject {
  return { $ref: `#/components/schemas/${name}` };
}

/** A resource object of any portal type, told apart by `type`. */
const PORTAL_RESOURCE: SchemaObject = {
  type: 'object',
  description:
    'A resource object; its attributes and relationships depend on its type. Descriptions come in ' +
    'the languages of Accept-Language first; `fields[Type]=a,b` keeps only the attributes named.',
  oneOf: PORTAL_TYPES.map(component),
  discriminator: { propertyName: 'type' },
};

const FACET_CLASS: SchemaObject = {
  type: 'object',
  description: 'One facet of `facet`: the values of a field over the whole result, with their counts',
  required: ['param', 'name', 'key', 'count', 'facets'],
  additionalProperties: false,
  properties: {
    param: { type: 'string', enum: [...FACET_FIELDS], description: 'The parameter that filters by it' },
    name: { type: 'string', description: 'What it counts, to show' },
    key: { type: 'string', description: 'The field counted' },
    count: { type: 'integer', minimum: 0, description: 'Number of values' },
    facets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['value', 'name', 'count', 'applied'],
        additionalProperties: false,
        properties: {
          value: { type: 'string' },
          name: { type: 'string', description: 'In the language of the answer' },
          count: { type: 'integer', minimum: 0, description: 'Hits with this value, over the whole result' },
          applied: { type: 'boolean', description: 'Whether the request filters by it' },
        },
      },
    },
  },
};

const PORTAL_COLLECTION_DOCUMENT: SchemaObject = {
  type: 'object',
  description: 'A page of search results',
  required: ['data', 'links', 'meta'],
  additionalProperties: false,
  properties: {
    data: { type: 'array', items: component('PortalResource') },
    links: {
      type: 'object',
      required: ['first', 'last'],
      additionalProperties: false,
      properties: { first: LINK, last: LINK, prev: LINK, next: LINK },
    },
    meta: {
      type: 'object',
      required: ['total', 'pages'],
      additionalProperties: false,
      properties: {
        total: { type: 'integer', minimum: 0, description: 'Results over all pages' },
        pages: { type: 'integer', minimum: 1 },
        totalIsLowerBound: {
          type: 'boolean',
          enum: [true],
          description:
            'Present when the store counted only the first hits (PORTAL_COUNT_LIMIT, on Neo4j): ' +
            'there may be more than total, and the facets count those first hits',
        },
        facets: { type: 'array', items: component('PortalFacet'), description: 'With `facet`' },
      },
    },
    included: {
      type: 'array',
      items: component('PortalResource'),
      description: 'The scope item of a scoped search',
    },
  },
};

const PORTAL_SINGLE_DOCUMENT: SchemaObject = {
  type: 'object',
  description: 'One item',
  required: ['data'],
  additionalProperties: false,
  properties: {
    data: component('PortalResource'),
    included: {
      type: 'array',
      items: component('PortalResource'),
      description: 'Holder and parent of a documentary unit',
    },
  },
};

const PORTAL_INDEX_DOCUMENT: SchemaObject = {
  type: 'object',
  description: 'The API itself: its version, the types it serves and its routes',
  required: ['meta', 'links'],
  additionalProperties: false,
  properties: {
    meta: {
      type: 'object',
      required: ['name', 'version', 'status', 'types', 'routes'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', example: 'Portal API' },
        version: { type: 'string', example: '1' },
        status: { type: 'string', example: 'experimental' },
        types: { type: 'array', items: { type: 'string', enum: [...PORTAL_TYPES] } },
        routes: {
          type: 'object',
          required: ['search', 'fetch', 'searchIn', 'related'],
          additionalProperties: false,
          properties: {
            search: text('URL of the search'),
            fetch: text('URL template of one item ({id})'),
            searchIn: text('URL template of the search within an item ({id})'),
            related: text('URL template of the search of the items linked to an item ({id})'),
          },
        },
      },
    },
    links: { type: 'object', required: ['self'], additionalProperties: false, properties: { self: LINK } },
  },
};

const JSONAPI_ERROR_DOCUMENT: SchemaObject = {
  type: 'object',
  description: 'A JSON:API error document',
  required: ['errors'],
  additionalProperties: false,
  properties: {
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['status', 'title', 'meta'],
        additionalProperties: false,
        properties: {
          status: { type: 'string', pattern: '^[1-5][0-9][0-9]$', description: 'The HTTP status' },
          title: { type: 'string', description: 'The status reason phrase' },
          detail: { type: 'string' },
          source: {
            type: 'object',
            required: ['parameter'],
            additionalProperties: false,
            properties: { parameter: text('The query parameter at fault') },
          },
          meta: {
            type: 'object',
            required: ['requestId'],
            additionalProperties: false,
            properties: { requestId: text('The request id (X-Request-Id), as the server logs it') },
          },
        },
      },
    },
  },
};

/** The schemas the portal's documents refer to, for the OpenAPI document's `components.schemas`. */
export const PORTAL_SCHEMAS: Record<string, SchemaObject> = {
  ...Object.fromEntries(PORTAL_TYPES.map((type) => [type, resource(type)])),
  PortalResource: PORTAL_RESOURCE,
  PortalFacet: FACET_CLASS,
  PortalCollectionDocument: PORTAL_COLLECTION_DOCUMENT,
  PortalSingleDocument: PORTAL_SINGLE_DOCUMENT,
  PortalIndexDocument: PORTAL_INDEX_DOCUMENT,
  JsonApiErrorDocument: JSONAPI_ERROR_DOCUMENT,
};

export const COLLECTION_DOCUMENT = component('PortalCollectionDocument');
export const SINGLE_DOCUMENT = component('PortalSingleDocument');
export const INDEX_DOCUMENT = component('PortalIndexDocument');
export const ERROR_DOCUMENT = component('JsonApiErrorDocument');
