import {
  Controller,
  Get,
  Headers,
  HttpStatus,
  Inject,
  Param,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { GraphStore } from '../../graph/graph-store';
import { IDENTIFIER } from '../../items/ontology';
import { ApiNestErrors } from '../../openapi/openapi';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { RateLimited } from '../../rate-limits/rate-limit.guard';
import { ExportItems, segment } from '../export-items';
import { ApiExportAnswers } from '../export.openapi';
import { negotiateRdf } from './rdf-negotiation';
import { RDF_MEDIA_TYPES, rdfDocument } from './rdf-writers';
import { vocabularyStatements } from './vocabulary-statements';

/** `GET /export/vocabularies/{id}/skos`: a vocabulary as SKOS in the RDF syntax asked for. */
@ApiTags('export')
@Controller('export/vocabularies')
@RateLimited('portal')
@RolesAllowed('portal', 'ops')
@UseGuards(PortalAuthGuard)
export class SkosExportController {
  private readonly base: string;

  constructor(
    private readonly items: ExportItems,
    private readonly store: GraphStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.base = config.publicUrl.replace(/\/+$/, '');
  }

  @Get(':id/skos')
  @ApiOperation({
    summary: 'A vocabulary as SKOS',
    description:
      "Its concepts as the reference's JenaSkosExporter writes them, streamed a page of concepts at a " +
      'time; POST /import/skos reads any of the syntaxes back into the same vocabulary, unchanged ' +
      '(docs/exports.md). The syntax is chosen by the format parameter, else by Accept; Turtle by default.',
  })
  @ApiProduces(...RDF_MEDIA_TYPES)
  @ApiHeader({ name: 'Accept', required: false, description: `One of ${RDF_MEDIA_TYPES.join(', ')}` })
  @ApiQuery({
    name: 'format',
    required: false,
    description:
      'Overrides Accept: turtle, rdf/xml, n-triples, json-ld (any case) or one of their media types',
  })
  @ApiResponse({
    status: 200,
    description: 'The SKOS document',
    content: Object.fromEntries(RDF_MEDIA_TYPES.map((mediaType) => [mediaType, {}])),
  })
  @ApiNestErrors([
    [400, 'format given more than once'],
    [406, 'Neither format nor Accept names a syntax the export writes'],
  ])
  @ApiExportAnswers('vocabulary')
  async skos(
    @Param('id') id: string,
    @Query('format') format: unknown,
    @Headers('accept') accept: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const mediaType = negotiateRdf(accept, format);
    const path = (itemId: string) => `/export/vocabularies/${segment(itemId)}/skos`;
    const item = await this.items.find(id, 'CvocVocabulary', path, req, reply);
    if (item === undefined) return;
    const identifier = item.bundle.data[IDENTIFIER];
    const schemeUri = `${this.base}/vocabularies/${segment(typeof identifier === 'string' ? identifier : id)}`;
    const statements = vocabularyStatements(this.store, item.bundle, schemeUri);
    void reply
      .code(HttpStatus.OK)
      .header('Content-Type', `${mediaType}; charset=utf-8`)
      .header('Vary', 'Accept')
      .send(rdfDocument(mediaType, statements));
  }
}
