import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ApiNestErrors } from '../openapi/openapi';

/** The answers every export shares besides its document: 301, and 401, 403, 404 and 410 errors. */
export function ApiExportAnswers(what: string): MethodDecorator {
  return applyDecorators(
    ApiParam({ name: 'id', description: `Id of the ${what}` }),
    ApiResponse({
      status: 301,
      description: 'An import moved the item: Location is the same export of its new id, with the query',
    }),
    ApiNestErrors([
      [401, 'No valid token of role portal or ops (PORTAL_AUTH=token, the default)'],
      [403, 'The token has neither role portal nor ops'],
      [404, `No ${what} with this id`],
      [410, 'An import deleted the item'],
    ]),
  );
}

/** The `lang` parameter of the XML exports, and its 400. */
export function ApiExportLanguage(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'lang',
      required: false,
      description:
        'The description to write: the one in this language (ISO 639-2 or 639-1 code), else the ' +
        'English one, else the first',
      schema: { type: 'string', default: 'eng' },
    }),
    ApiNestErrors([[400, 'lang is not a language code']]),
  );
}

/**
 * An export of one item's description as an XML document (EAG, EAC-CPF): `document` names it,
 * `what` the item. Applied in the order decorators written above a method apply, bottom first.
 */
export function ApiDescribedExport(what: string, document: string, description: string): MethodDecorator {
  return applyDecorators(
    ApiExportLanguage(),
    ApiExportAnswers(what),
    ApiResponse({ status: 200, description: `The ${document} document`, content: { 'application/xml': {} } }),
    ApiProduces('application/xml'),
    ApiOperation({ summary: `A ${what} as ${document}`, description }),
  );
}
