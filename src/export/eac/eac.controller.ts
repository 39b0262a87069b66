import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { RateLimited } from '../../rate-limits/rate-limit.guard';
import { DescribedExport, ExportItems, segment } from '../export-items';
import { ApiDescribedExport } from '../export.openapi';
import { eacDocument } from './eac-writer';

const EAC: DescribedExport = {
  type: 'HistoricalAgent',
  name: 'Historical agent',
  pathOf: (id) => `/export/agents/${segment(id)}/eac`,
  write: (item, description) => eacDocument(item.bundle, description, { now: new Date().toISOString() }),
};

/** `GET /export/agents/{id}/eac`: a historical agent as EAC-CPF. */
@ApiTags('export')
@Controller('export/agents')
@RateLimited('portal')
@RolesAllowed('portal', 'ops')
@UseGuards(PortalAuthGuard)
export class EacExportController {
  constructor(private readonly items: ExportItems) {}

  @Get(':id/eac')
  @ApiDescribedExport(
    'historical agent',
    'EAC-CPF',
    "In the reference's Eac2010Exporter layout, valid against eac.xsd; POST /import/eac reads it " +
      'back into the same agent, unchanged (docs/exports.md).',
  )
  eac(
    @Param('id') id: string,
    @Query('lang') lang: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.items.sendDescribed({ id, lang, req, reply }, EAC);
  }
}
