import { Controller, Get, HttpStatus, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { GraphStore } from '../../graph/graph-store';
import { ApiNestErrors } from '../../openapi/openapi';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { RateLimited } from '../../rate-limits/rate-limit.guard';
import { ExportItems, segment, XML_MEDIA_TYPE } from '../export-items';
import { exportLanguage } from '../languages';
import { dublinCoreSources } from './dc-sources';
import { dublinCore } from './dublin-core';
import { XML_DECLARATION } from './xml-markup';

/**
 * `GET /export/{id}/dc`: any portal item as simple Dublin Core (`oai_dc`), as the reference's
 * `/{id}/dc`. Read as the portal reads: a token of role `portal` or `ops`, or none when
 * `PORTAL_AUTH=off`; an id the portal does not have answers 404, 410 or 301 as its fetch does.
 */
@ApiTags('export')
@Controller('export')
@RateLimited('portal')
@RolesAllowed('portal', 'ops')
@UseGuards(PortalAuthGuard)
export class DublinCoreController {
  constructor(
    private readonly items: ExportItems,
    private readonly store: GraphStore,
  ) {}

  @Get(':id/dc')
  @ApiOperation({
    summary: 'An item as Dublin Core (oai_dc), as the reference exports it',
    description:
      "The item's local identifier, then from its description in `lang` (or the best one: English, " +
      'then the first) its title, a unit holder as publisher, dates and places as coverage, level or ' +
      'entity type as type, extent as format, languages of the material, the text fields as ' +
      'description, creators, subjects and people or bodies as relation.',
  })
  @ApiParam({ name: 'id', description: 'Item id' })
  @ApiQuery({ name: 'lang', required: false, description: 'Description language, an ISO 639 code' })
  @ApiProduces('application/xml')
  @ApiResponse({
    status: 200,
    description: 'The oai_dc:dc document',
    content: { 'application/xml': { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 301, description: 'The item moved: Location is its export under its new id' })
  @ApiNestErrors([
    [400, 'lang is not a language code'],
    [401, 'No valid bearer token (PORTAL_AUTH=token)'],
    [403, 'The token is of another role'],
    [404, 'No item has this id'],
    [410, 'An import deleted the item'],
    [429, 'Too many requests'],
  ])
  async dublinCore(
    @Param('id') id: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const language = exportLanguage(lang);
    const path = (itemId: string) => `/export/${segment(itemId)}/dc`;
    const found = await this.items.find(id, undefined, path, req, reply);
    if (found === undefined) return;
    const sources = await this.store.read((tx) => dublinCoreSources(tx, [found]));
    const { source } = sources.get(id)!;
    void reply
      .code(HttpStatus.OK)
      .header('Content-Type', XML_MEDIA_TYPE)
      .send(XML_DECLARATION + dublinCore(source, language));
  }
}
