import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { GraphStore } from '../../graph/graph-store';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { RateLimited } from '../../rate-limits/rate-limit.guard';
import { ExportRequest, ExportItems, segment } from '../export-items';
import { exportLanguage } from '../languages';
import { ApiRepositoryExport, ApiUnitExport } from './ead-export.openapi';
import { EadExporter } from './ead-exporter';
import { EadVersion } from './ead-fields';
import { ZipEntry, zipStream } from './zip-stream';

/** Top-level units asked of the store at a time while a repository's ZIP is written. */
const PAGE = 100;

/** What an EAD export writes: one unit's finding aid, or a repository's ZIP of them. */
interface EadTarget {
  version: EadVersion;
  scope: 'unit' | 'repository';
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
  constructor(
    private readonly exporter: EadExporter,
    private readonly items: ExportItems,
    private readonly store: GraphStore,
  ) {}

  @Get('ead/:unitId')
  @ApiUnitExport('ead')
  ead(
    @Param('unitId') unitId: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.send({ version: 'ead', scope: 'unit' }, { id: unitId, lang, req, reply });
  }

  @Get('ead3/:unitId')
  @ApiUnitExport('ead3')
  ead3(
    @Param('unitId') unitId: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.send({ version: 'ead3', scope: 'unit' }, { id: unitId, lang, req, reply });
  }

  @Get('repositories/:id/ead')
  @ApiRepositoryExport('ead')
  repositoryEad(
    @Param('id') id: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.send({ version: 'ead', scope: 'repository' }, { id, lang, req, reply });
  }

  @Get('repositories/:id/ead3')
  @ApiRepositoryExport('ead3')
  repositoryEad3(
    @Param('id') id: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.send({ version: 'ead3', scope: 'repository' }, { id, lang, req, reply });
  }

  /** The export `target` names of the item the request names, or its 301, 404 or 410. */
  private async send({ version, scope }: EadTarget, { id, lang, req, reply }: ExportRequest): Promise<void> {
    const language = exportLanguage(lang);
    const path = (itemId: string) =>
      scope === 'unit'
        ? `/export/${version}/${segment(itemId)}`
        : `/export/repositories/${segment(itemId)}/${version}`;
    const type = scope === 'unit' ? 'DocumentaryUnit' : 'Repository';
    if ((await this.items.find(id, type, path, req, reply)) === undefined) return;
    void reply.header('Content-Language', language);
    if (scope === 'unit') {
      void reply
        .type('application/xml; charset=utf-8')
        .send(Readable.from(this.exporter.chunks(id, version, language), { objectMode: false }));
    } else {
      void reply
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="${id}-${version}.zip"`)
        .send(zipStream(this.entries(id, version, language)));
    }
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
