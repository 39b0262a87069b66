import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ApiNestErrors } from '../../openapi/openapi';
import { EadVersion } from './ead-fields';

/** OpenAPI descriptions of the EAD exports (docs/exports.md). */

const NAMES: Record<EadVersion, string> = { ead: 'EAD 2002', ead3: 'EAD3' };

const LANG_QUERY = ApiQuery({
  name: 'lang',
  required: false,
  schema: { type: 'string', default: 'eng', example: 'deu' },
  description:
    'The description language (ISO 639-1 or 639-2 code): each unit is written with its description ' +
    "in it, else with one in its parent's language, else with its first",
});

const MOVED = ApiResponse({
  status: 301,
  description: 'An import moved the item: Location names the same export of its new id',
  headers: { Location: { schema: { type: 'string', format: 'uri' } } },
});

const ERRORS = ApiNestErrors([
  [400, 'lang is no language code'],
  [401, 'Missing or invalid bearer token (with PORTAL_AUTH=token, the default)'],
  [403, 'The token has neither the portal nor the ops role'],
  [404, 'No item with this id, or one of another type'],
  [410, 'An import (ead-sync) deleted the item'],
  [429, 'Over PORTAL_RATE_LIMIT requests a minute for this token, shared with the portal'],
]);

export function ApiUnitExport(version: EadVersion) {
  return applyDecorators(
    ApiOperation({
      summary: `A documentary unit and every unit below it as one ${NAMES[version]} finding aid`,
      description:
        'Streamed as it is written. The import reads what the export writes back into the same units ' +
        '(docs/exports.md says what is left out).',
    }),
    ApiParam({ name: 'unitId', description: 'Id of the documentary unit' }),
    LANG_QUERY,
    ApiProduces('application/xml'),
    ApiResponse({
      status: 200,
      description: `The ${NAMES[version]} finding aid`,
      content: { 'application/xml': { schema: { type: 'string' } } },
    }),
    MOVED,
    ERRORS,
  );
}

export function ApiRepositoryExport(version: EadVersion) {
  return applyDecorators(
    ApiOperation({
      summary: `A repository's top-level units as a ZIP of ${NAMES[version]} finding aids`,
      description: 'One file `<unit id>.xml` per top-level unit, each with every unit below it; streamed.',
    }),
    ApiParam({ name: 'id', description: 'Id of the repository' }),
    LANG_QUERY,
    ApiProduces('application/zip'),
    ApiResponse({
      status: 200,
      description: 'The ZIP',
      content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
    }),
    MOVED,
    ERRORS,
  );
}
