import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

/** Where the service's parts are, as `GET /` lists them. */
export const SERVICE_LINKS = {
  console: '/console',
  docs: '/docs',
  openapi: '/openapi.json',
  portal: '/api/v1',
  health: '/health/ready',
  metrics: '/metrics',
} as const;

const INDEX: SchemaObject = {
  type: 'object',
  required: ['service', 'links'],
  properties: {
    service: { type: 'string' },
    links: {
      type: 'object',
      required: Object.keys(SERVICE_LINKS),
      properties: Object.fromEntries(Object.keys(SERVICE_LINKS).map((name) => [name, { type: 'string' }])),
    },
  },
};

/**
 * `GET /`: a browser (asking for HTML) is sent on to the console; any other client gets the index
 * of the service's parts, so that the root is never a dead end.
 */
@ApiTags('operations')
@Controller()
export class IndexController {
  @Get()
  @ApiOperation({
    summary: "The service's parts: a redirect to the console for a browser, their links for other clients",
  })
  @ApiProduces('application/json')
  @ApiResponse({
    status: 200,
    description: 'Links to the console, the API docs, the portal and health',
    schema: INDEX,
  })
  @ApiResponse({ status: 302, description: 'To `/console`, when the request accepts text/html' })
  index(@Headers('accept') accept: string | undefined, @Res() reply: FastifyReply): void {
    if (accept?.includes('text/html')) {
      void reply.redirect(SERVICE_LINKS.console, 302);
      return;
    }
    void reply.send({ service: 'archival-data-service', links: SERVICE_LINKS });
  }
}
