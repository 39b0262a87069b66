import {
  Controller,
  Get,
  HttpStatus,
  NotFoundException,
  Param,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { ExportItems, segment } from '../export-items';
import { ApiExportAnswers, ApiExportLanguage } from '../export.openapi';
import { chosenDescription, exportLanguage } from '../languages';
import { eacDocument } from './eac-writer';

const XML = 'application/xml; charset=utf-8';

/** `GET /export/agents/{id}/eac`: a historical agent as EAC-CPF. */
@ApiTags('export')
@Controller('export/agents')
@RolesAllowed('portal', 'ops')
@UseGuards(PortalAuthGuard)
export class EacExportController {
  constructor(private readonly items: ExportItems) {}

  @Get(':id/eac')
  @ApiOperation({
    summary: 'A historical agent as EAC-CPF',
    description:
      "In the reference's Eac2010Exporter layout, valid against eac.xsd; POST /import/eac reads it " +
      'back into the same agent, unchanged (docs/exports.md).',
  })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 200, description: 'The EAC-CPF document', content: { 'application/xml': {} } })
  @ApiExportAnswers('historical agent')
  @ApiExportLanguage()
  async eac(
    @Param('id') id: string,
    @Query('lang') lang: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const language = exportLanguage(lang);
    const path = (itemId: string) => `/export/agents/${segment(itemId)}/eac`;
    const item = await this.items.find(id, 'HistoricalAgent', path, req, reply);
    if (item === undefined) return;
    const description = chosenDescription(item.bundle, language);
    if (description === undefined) throw new NotFoundException(`Historical agent "${id}" has no description`);
    const document = eacDocument(item.bundle, description, { now: new Date().toISOString() });
    void reply.code(HttpStatus.OK).header('Content-Type', XML).send(document);
  }
}
