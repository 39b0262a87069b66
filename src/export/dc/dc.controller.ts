import {
  BadRequestException,
  Controller,
  Get,
  HttpStatus,
  Inject,
  NotFoundException,
  Param,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { GraphStore } from '../../graph/graph-store';
import { toLanguageCode } from '../../items/languages';
import { ApiNestErrors } from '../../openapi/openapi';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { isPortalType } from '../../portal/portal-types';
import { PortalService } from '../../portal/portal.service';
import { RateLimited } from '../../rate-limits/rate-limit.guard';
import { dublinCoreSources } from './dc-sources';
import { dublinCore } from './dublin-core';
import { XML_DECLARATION } from './xml-markup';

export const XML_MEDIA_TYPE = 'application/xml; charset=utf-8';

/** The `lang` parameter: an ISO 639 code (`eng`, `ger`, `de`), as imports take it; 400 for anything else. */
export function languageParameter(lang: unknown): string | undefined {
  if (lang === undefined || lang === '') return undefined;
  if (typeof lang !== 'string') throw new BadRequestException('lang is given more than once');
  const code = toLanguageCode(lang);
  if (code === undefined) {
    throw new BadRequestException(
      `lang=${JSON.stringify(lang)} is not an ISO 639 language code (such as eng or de)`,
    );
  }
  return code;
}

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
  private readonly base: string;

  constructor(
    private readonly portal: PortalService,
    private readonly store: GraphStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.base = `${config.publicUrl}/export`;
  }

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
    const language = languageParameter(lang);
    const found = await this.portal.storedItem(id, (newId) => `${this.base}/${encodeURIComponent(newId)}/dc`);
    if ('movedTo' in found) {
      const query = req.originalUrl.indexOf('?');
      const location = found.movedTo + (query === -1 ? '' : req.originalUrl.slice(query));
      void reply.code(HttpStatus.MOVED_PERMANENTLY).header('Location', location).send();
      return;
    }
    if (!isPortalType(found.bundle.type)) throw new NotFoundException(`No item with id "${id}"`);
    const sources = await this.store.read((tx) => dublinCoreSources(tx, [found]));
    const { source } = sources.get(id)!;
    void reply
      .code(HttpStatus.OK)
      .header('Content-Type', XML_MEDIA_TYPE)
      .send(XML_DECLARATION + dublinCore(source, language));
  }
}
