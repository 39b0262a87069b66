import { applyDecorators } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiResponse, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { ROLES, Role } from '../auth/roles';
import { IMPORT_FORMATS } from '../import/formats/formats.module';
import { PORTAL_SCHEMAS } from '../portal/portal-schemas.openapi';

/** Where the OpenAPI document is served; the UI is at `/docs`. */
export const OPENAPI_PATH = 'openapi.json';

/**
 * One bearer security scheme per role, named like it, so that the document says which token each
 * operation takes (`RequireRole` applies it), and a client or a fuzzer can hold one of each.
 */
function withRoleSchemes(builder: DocumentBuilder): DocumentBuilder {
  return ROLES.reduce(
    (document, role: Role) =>
      document.addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          description: `A token of role ${role} (npx archive-cli token create --role ${role})`,
        },
        role,
      ),
    builder,
  );
}

/** The OpenAPI document of every route, at `/openapi.json`, and its UI at `/docs`. */
export function serveOpenApi(app: NestFastifyApplication): void {
  const openApi = withRoleSchemes(
    new DocumentBuilder()
      .setTitle('Archival data service')
      .setDescription(
        `Import interface (${IMPORT_FORMATS.map((format) => format.name).join(', ')}), the portal read API v1 ` +
          '(JSON:API), import logs, metrics and health for operators. Every answer carries ' +
          '`X-Request-Id` (a well-formed one sent by the client is kept), and every error body the ' +
          'request id too.',
      )
      .setVersion('1'),
  ).build();
  // Schemas written as schema objects rather than DTO classes, which the scanned ones join.
  openApi.components = { ...openApi.components, schemas: { ...PORTAL_SCHEMAS } };
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, openApi), {
    jsonDocumentUrl: OPENAPI_PATH,
  });
}

/** Nest's error body, which paths outside the import and portal interfaces answer with. */
export const NEST_ERROR: SchemaObject = {
  type: 'object',
  required: ['statusCode', 'message', 'requestId'],
  properties: {
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    error: { type: 'string', description: 'The status reason phrase' },
    requestId: { type: 'string', description: 'The request id (X-Request-Id), as the server logs it' },
  },
};

/**
 * Error answers of a route outside the import and portal interfaces, by status and description;
 * JSON whatever the route's own answers are (`ApiProduces`).
 */
export function ApiNestErrors(
  errors: [status: number, description: string][],
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...errors.map(([status, description]) =>
      ApiResponse({ status, description, content: { 'application/json': { schema: NEST_ERROR } } }),
    ),
  );
}
