import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { ApiNestErrors } from '../../openapi/openapi';
import { VERBS } from './oai-request';

/** OpenAPI descriptions of `/oai`: the protocol's arguments, its XML answers, the HTTP failures. */

const ARGUMENTS: Record<string, SchemaObject & { description: string }> = {
  verb: {
    type: 'string',
    enum: [...VERBS],
    description: 'The request: without a valid one, the answer is badVerb',
  },
  identifier: { type: 'string', description: 'A documentary unit id (GetRecord, ListMetadataFormats)' },
  metadataPrefix: { type: 'string', description: 'oai_dc, ead or ead3' },
  from: { type: 'string', description: 'Updated at or after: YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ' },
  until: { type: 'string', description: 'Updated at or before, in the granularity of from' },
  set: { type: 'string', description: 'A country (nl) or a repository in it (nl:nl-002345)' },
  resumptionToken: { type: 'string', description: 'From the answer before, given with the verb alone' },
};

const DESCRIPTION =
  'OAI-PMH 2.0 (docs/oai-pmh.md). Every documentary unit is a record in oai_dc; top-level units, ' +
  'each a whole finding aid, in ead and ead3 too. Sets: a country, and a repository within it. ' +
  'Deleted records are kept (deletedRecord: persistent). Protocol errors are answers of status 200 ' +
  'with an error element, as the protocol has them.';

function answers() {
  return applyDecorators(
    ApiProduces('text/xml'),
    ApiResponse({
      status: 200,
      description: 'An OAI-PMH answer (OAI-PMH.xsd), a protocol error included',
      content: { 'text/xml': { schema: { type: 'string' } } },
    }),
  );
}

const HTTP_FAILURES: [number, string][] = [
  [401, 'No valid bearer token (PORTAL_AUTH=token)'],
  [403, 'The token is of another role'],
  [429, 'Over PORTAL_RATE_LIMIT requests a minute'],
];

export function ApiOaiGet() {
  return applyDecorators(
    ApiOperation({ summary: 'OAI-PMH 2.0, arguments in the query', description: DESCRIPTION }),
    ...Object.entries(ARGUMENTS).map(([name, { description, ...schema }]) =>
      ApiQuery({ name, required: false, schema, description }),
    ),
    answers(),
    ApiNestErrors(HTTP_FAILURES),
  );
}

export function ApiOaiPost() {
  return applyDecorators(
    ApiOperation({ summary: 'OAI-PMH 2.0, arguments as a form', description: DESCRIPTION }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      required: true,
      schema: { type: 'object', properties: ARGUMENTS, additionalProperties: false },
    }),
    answers(),
    ApiNestErrors([
      ...HTTP_FAILURES,
      [413, 'The form is over 64 KiB'],
      [415, 'The body is not a form (application/x-www-form-urlencoded)'],
    ]),
  );
}
