import {
  All,
  Controller,
  Delete,
  Get,
  HttpException,
  HttpStatus,
  Inject,
  NotFoundException,
  Param,
  Patch,
  Post,
  Put,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiExcludeEndpoint,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RolesAllowed } from '../auth/bearer-auth.guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RateLimited } from '../rate-limits/rate-limit.guard';
import { JsonApiMediaGuard } from './jsonapi-media.guard';
import { JSONAPI_MEDIA_TYPE, sendBody } from './jsonapi';
import { LanguagePreference, languagePreference } from './languages';
import { PortalAuthGuard, PublicRoute } from './portal-auth.guard';
import { ApiFetchResponses, ApiLanguage, ApiNotFound, ApiPortalErrors, ApiSearch } from './portal.openapi';
import { INDEX_DOCUMENT } from './portal-schemas.openapi';
import { PortalAnswer, PortalService } from './portal.service';
import {
  parseFields,
  parseSearchParams,
  QueryLimits,
  rejectUnsupportedParameters,
  SearchParams,
} from './search-params';

/** The query string as sent; independent of how the app's query parser shapes `req.query`. */
function queryOf(req: FastifyRequest): URLSearchParams {
  const start = req.originalUrl.indexOf('?');
  return new URLSearchParams(start === -1 ? '' : req.originalUrl.slice(start + 1));
}

/**
 * Sends an answer: the document, stating the language it names things in, or a 301 to the new
 * place of an item an import moved, with the request's query.
 */
function send(reply: FastifyReply, req: FastifyRequest, answer: PortalAnswer, language: string): void {
  if ('movedTo' in answer) {
    const query = req.originalUrl.indexOf('?');
    const location = answer.movedTo + (query === -1 ? '' : req.originalUrl.slice(query));
    void reply.code(HttpStatus.MOVED_PERMANENTLY).header('Location', location).send();
    return;
  }
  void reply.header('Content-Language', language).header('Vary', 'Accept-Language');
  sendBody(reply, HttpStatus.OK, answer.body);
}

/**
 * The portal read API v1 (JSON:API 1.0). Class decorators apply bottom-up, so the media guard,
 * listed last, runs first: content negotiation (406/415) comes before the bearer token, as in the
 * reference portal; the rate limit, which counts per token, comes after it.
 */
@ApiTags('portal')
@ApiProduces(JSONAPI_MEDIA_TYPE)
@ApiPortalErrors()
@Controller('api/v1')
@RateLimited('portal')
@RolesAllowed('portal')
@UseGuards(JsonApiMediaGuard, PortalAuthGuard)
export class PortalController {
  private readonly queryLimits: QueryLimits;

  constructor(
    private readonly portal: PortalService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.queryLimits = config.portal;
  }

  @Get()
  @PublicRoute()
  @ApiOperation({ summary: 'Index of the portal API: its version and routes (needs no token)', security: [] })
  @ApiResponse({ status: 200, description: 'A meta document naming the routes', schema: INDEX_DOCUMENT })
  index(@Res() reply: FastifyReply): void {
    sendBody(reply, HttpStatus.OK, this.portal.index());
  }

  @Get('search')
  @ApiOperation({
    summary: 'Search countries, repositories, documentary units, historical agents and concepts',
  })
  @ApiSearch()
  @ApiLanguage()
  async search(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const language = languagePreference(req.headers['accept-language']);
    const answer = await this.portal.search(parseSearchParams(queryOf(req), this.queryLimits), language);
    send(reply, req, answer, language.tag);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One item by id, with the holder and parent of a documentary unit' })
  @ApiParam({ name: 'id', description: 'Item id' })
  @ApiFetchResponses()
  @ApiLanguage()
  async fetch(
    @Param('id') id: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const query = queryOf(req);
    rejectUnsupportedParameters(query);
    const language = languagePreference(req.headers['accept-language']);
    send(reply, req, await this.portal.fetch(id, parseFields(query), language), language.tag);
  }

  @Get(':id/search')
  @ApiOperation({
    summary: 'Search within an item',
    description:
      'A country yields its repositories; a repository its top-level units and a unit its child units, ' +
      'or, with q, every unit below them; an authority set its agents and a vocabulary its concepts.',
  })
  @ApiParam({ name: 'id', description: 'Id of the country, repository, unit, authority set or vocabulary' })
  @ApiSearch()
  @ApiNotFound()
  @ApiLanguage()
  searchIn(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.searchAbout(id, req, reply, (...args) => this.portal.searchIn(...args));
  }

  @Get(':id/related')
  @ApiOperation({
    summary: 'Search the items linked to an item',
    description:
      'The items at the other end of the links (POST /import/links) that have this item at one end, as ' +
      "the reference's related search; agents' and concepts' links.related lead here.",
  })
  @ApiParam({ name: 'id', description: 'Item id' })
  @ApiSearch()
  @ApiNotFound()
  @ApiLanguage()
  related(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.searchAbout(id, req, reply, (...args) => this.portal.related(...args));
  }

  /** A search about one item (`search`: in its scope, or among what is linked to it), answered. */
  private async searchAbout(
    id: string,
    req: FastifyRequest,
    reply: FastifyReply,
    search: (id: string, params: SearchParams, language: LanguagePreference) => Promise<PortalAnswer>,
  ): Promise<void> {
    const language = languagePreference(req.headers['accept-language']);
    send(
      reply,
      req,
      await search(id, parseSearchParams(queryOf(req), this.queryLimits), language),
      language.tag,
    );
  }

  /** Anything else under the API answers in JSON:API too, rather than with the app's default page. */
  @All('*')
  @ApiExcludeEndpoint()
  unknownRoute(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): never {
    if (req.method === 'GET' || req.method === 'HEAD') throw new NotFoundException('No such route');
    readOnly(reply);
  }

  // Writes to the index itself, which `*` does not reach and `@All()` would take with its GET.
  @Post()
  @ApiExcludeEndpoint()
  postIndex(@Res({ passthrough: true }) reply: FastifyReply): never {
    readOnly(reply);
  }

  @Put()
  @ApiExcludeEndpoint()
  putIndex(@Res({ passthrough: true }) reply: FastifyReply): never {
    readOnly(reply);
  }

  @Patch()
  @ApiExcludeEndpoint()
  patchIndex(@Res({ passthrough: true }) reply: FastifyReply): never {
    readOnly(reply);
  }

  @Delete()
  @ApiExcludeEndpoint()
  deleteIndex(@Res({ passthrough: true }) reply: FastifyReply): never {
    readOnly(reply);
  }
}

function readOnly(reply: FastifyReply): never {
  void reply.header('Allow', 'GET, HEAD, OPTIONS');
  throw new HttpException('The portal API is read-only', HttpStatus.METHOD_NOT_ALLOWED);
}
