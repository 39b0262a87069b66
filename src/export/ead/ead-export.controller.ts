import { Readable } from 'node:stream';
import {
  BadRequestException,
  Controller,
  Get,
  HttpStatus,
  Inject,
  Param,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { GraphStore } from '../../graph/graph-store';
import { toLanguageCode } from '../../items/languages';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { RateLimited } from '../../rate-limits/rate-limit.guard';
import { ApiRepositoryExport, ApiUnitExport } from './ead-export.openapi';
import { EadExporter } from './ead-exporter';
import { EadVersion } from './ead-fields';
import { ZipEntry, zipStream } from './zip-stream';

/** The description language when a request names none, as the import's default. */
const DEFAULT_LANGUAGE = 'eng';
/** Top-level units asked of the store at a time while a repository's ZIP is written. */
const PAGE = 100;

/** The `lang` parameter as an ISO 639-2/T code; 400 for anything that is no language code. */
export function exportLanguage(lang: unknown): string {
  if (lang === undefined || lang === '') return DEFAULT_LANGUAGE;
  if (typeof lang !== 'string') throw new BadRequestException('lang: give one language code');
  const code = toLanguageCode(lang.trim());
  if (code === undefined) {
    throw new BadRequestException(`lang: "${lang}" is not an ISO 639-1 or 639-2 language code`);
  }
  return code;
}

function queryString(req: FastifyRequest): string {
  const start = req.originalUrl.indexOf('?');
  return start === -1 ? '' : req.originalUrl.slice(start);
}

/**
 * A documentary unit as an EAD 2002 or EAD3 finding aid, and a repository's top-level units as a
 * ZIP of finding aids, streamed as they are written. Readers of the portal (role `portal`) and
 * operators (`ops`) may export; everyone when `PORTAL_AUTH=off`, as for the portal, whose rate
 * limit (`PORTAL_RATE_LIMIT`) the exports share. Class decorators apply bottom-up: the token is
 * checked before the limit that counts per token.
 */
@ApiTags('export')
@Controller('export')
@RateLimited('portal')
@RolesAllowed('portal', 'ops')
@UseGuards(PortalAuthGuard)
export class EadExportController {
  private readonly base: string;

  constructor(
    private readonly exporter: EadExporter,
    private readonly store: GraphStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.base = `${config.publicUrl.replace(/\/+$/, '')}/export`;
  }

  @Get('ead/:unitId')
  @ApiUnitExport('ead')
  ead(
    @Param('unitId') unitId: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.unit('ead', unitId, lang, req, reply);
  }

  @Get('ead3/:unitId')
  @ApiUnitExport('ead3')
  ead3(
    @Param('unitId') unitId: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.unit('ead3', unitId, lang, req, reply);
  }

  @Get('repositories/:id/ead')
  @ApiRepositoryExport('ead')
  repositoryEad(
    @Param('id') id: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.repository('ead', id, lang, req, reply);
  }

  @Get('repositories/:id/ead3')
  @ApiRepositoryExport('ead3')
  repositoryEad3(
    @Param('id') id: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.repository('ead3', id, lang, req, reply);
  }

  private async unit(
    version: EadVersion,
    unitId: string,
    lang: unknown,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const language = exportLanguage(lang);
    const url = (id: string) => `${this.base}/${version}/${encodeURIComponent(id)}`;
    const moved = await this.exporter.locate(unitId, 'DocumentaryUnit', url);
    if (moved !== undefined) {
      void reply
        .code(HttpStatus.MOVED_PERMANENTLY)
        .header('Location', moved.movedTo + queryString(req))
        .send();
      return;
    }
    void reply
      .type('application/xml; charset=utf-8')
      .header('Content-Language', language)
      .send(Readable.from(this.exporter.chunks(unitId, version, language), { objectMode: false }));
  }

  private async repository(
    version: EadVersion,
    id: string,
    lang: unknown,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const language = exportLanguage(lang);
    const url = (newId: string) => `${this.base}/repositories/${encodeURIComponent(newId)}/${version}`;
    const moved = await this.exporter.locate(id, 'Repository', url);
    if (moved !== undefined) {
      void reply
        .code(HttpStatus.MOVED_PERMANENTLY)
        .header('Location', moved.movedTo + queryString(req))
        .send();
      return;
    }
    void reply
      .type('application/zip')
      .header('Content-Disposition', `attachment; filename="${id}-${version}.zip"`)
      .header('Content-Language', language)
      .send(zipStream(this.entries(id, version, language)));
  }

  /** One finding aid per top-level unit of the repository, in the order of their ids. */
  private async *entries(
    repositoryId: string,
    version: EadVersion,
    language: string,
  ): AsyncGenerator<ZipEntry> {
    for (let offset = 0; ; offset += PAGE) {
      const { hits } = await this.store.read((tx) =>
        tx.search({
          scope: { id: repositoryId, depth: 'children' },
          types: ['DocumentaryUnit'],
          order: { key: 'id', descending: false },
          offset,
          limit: PAGE,
        }),
      );
      for (const { id } of hits) {
        yield { name: `${id}.xml`, chunks: () => this.exporter.chunks(id, version, language) };
      }
      if (hits.length < PAGE) return;
    }
  }
}
