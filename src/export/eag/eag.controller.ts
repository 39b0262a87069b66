import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { RateLimited } from '../../rate-limits/rate-limit.guard';
import { DescribedExport, ExportItems, segment } from '../export-items';
import { ApiDescribedExport } from '../export.openapi';
import { eag2012Document } from './eag2012-writer';

const EAG: DescribedExport = {
  type: 'Repository',
  name: 'Repository',
  pathOf: (id) => `/export/repositories/${segment(id)}/eag`,
  write: (item, description) =>
    eag2012Document(item.bundle, description, {
      countryCode: (item.edges.hasCountry?.[0] ?? '').toUpperCase(),
      now: new Date().toISOString(),
    }),
};

/** `GET /export/repositories/{id}/eag`: a repository as EAG 2012. */
@ApiTags('export')
@Controller('export/repositories')
@RateLimited('portal')
@RolesAllowed('portal', 'ops')
@UseGuards(PortalAuthGuard)
export class EagExportController {
  constructor(private readonly items: ExportItems) {}

  @Get(':id/eag')
  @ApiDescribedExport(
    'repository',
    'EAG 2012',
    "In the reference's Eag2012Exporter layout, valid against eag_2012.xsd; POST /import/eag reads it " +
      'back into the same repository, unchanged (docs/exports.md).',
  )
  eag(
    @Param('id') id: string,
    @Query('lang') lang: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.items.sendDescribed({ id, lang, req, reply }, EAG);
  }
}
