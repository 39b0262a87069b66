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
import { eag2012Document } from './eag2012-writer';

const XML = 'application/xml; charset=utf-8';

/** `GET /export/repositories/{id}/eag`: a repository as EAG 2012. */
@ApiTags('export')
@Controller('export/repositories')
@RolesAllowed('portal', 'ops')
@UseGuards(PortalAuthGuard)
export class EagExportController {
  constructor(private readonly items: ExportItems) {}

  @Get(':id/eag')
  @ApiOperation({
    summary: 'A repository as EAG 2012',
    description:
      "In the reference's Eag2012Exporter layout, valid against eag_2012.xsd; POST /import/eag reads it " +
      'back into the same repository, unchanged (docs/exports.md).',
  })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 200, description: 'The EAG 2012 document', content: { 'application/xml': {} } })
  @ApiExportAnswers('repository')
  @ApiExportLanguage()
  async eag(
    @Param('id') id: string,
    @Query('lang') lang: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const language = exportLanguage(lang);
    const path = (itemId: string) => `/export/repositories/${segment(itemId)}/eag`;
    const item = await this.items.find(id, 'Repository', path, req, reply);
    if (item === undefined) return;
    const description = chosenDescription(item.bundle, language);
    if (description === undefined) throw new NotFoundException(`Repository "${id}" has no description`);
    const country = item.edges.hasCountry?.[0] ?? '';
    const document = eag2012Document(item.bundle, description, {
      countryCode: country.toUpperCase(),
      now: new Date().toISOString(),
    });
    void reply.code(HttpStatus.OK).header('Content-Type', XML).send(document);
  }
}
