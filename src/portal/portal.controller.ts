import {
  All,
  Controller,
  Delete,
  Get,
  HttpException,
  HttpStatus,
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
import { RequireRole } from '../auth/bearer-auth.guard';
import { RateLimited } from '../rate-limits/rate-limit.guard';
import { JsonApiMediaGuard } from './jsonapi-media.guard';
import { JSONAPI_MEDIA_TYPE, sendBody } from './jsonapi';
import { ApiFetchResponses, ApiNotFound, ApiPortalErrors, ApiSearch, INDEX_DOCUMENT } from './portal.openapi';
import { PortalService } from './portal.service';
import { parseSearchParams, rejectUnsupportedParameters } from './search-params';

/** The query string as sent; independent of how the app's query parser shapes `req.query`. */
function queryOf(req: FastifyRequest): URLSearchParams {
  const start = req.originalUrl.indexOf('?');
  return new URLSearchParams(start === -1 ? '' : req.originalUrl.slice(start + 1));
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
@RequireRole('portal')
@UseGuards(JsonApiMediaGuard)
export class PortalController {
  constructor(private readonly portal: PortalService) {}

  @Get()
  @ApiOperation({ summary: 'Index of the portal API: its version and routes' })
  @ApiResponse({ status: 200, description: 'A meta document naming the routes', schema: INDEX_DOCUMENT })
  index(@Res() reply: FastifyReply): void {
    sendBody(reply, HttpStatus.OK, this.portal.index());
  }

  @Get('search')
  @ApiOperation({ summary: 'Search countries, repositories and documentary units' })
  @ApiSearch()
  async search(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendBody(reply, HttpStatus.OK, await this.portal.search(parseSearchParams(queryOf(req))));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One item by id, with the holder and parent of a documentary unit' })
  @ApiParam({ name: 'id', description: 'Item id' })
  @ApiFetchResponses()
  async fetch(
    @Param('id') id: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    rejectUnsupportedParameters(queryOf(req));
    sendBody(reply, HttpStatus.OK, await this.portal.fetch(id));
  }

  @Get(':id/search')
  @ApiOperation({
    summary: 'Search within an item',
    description:
      'A country yields its repositories; a repository its top-level units and a unit its child units, ' +
      'or, with q, every unit below them.',
  })
  @ApiParam({ name: 'id', description: 'Id of the country, repository or documentary unit' })
  @ApiSearch()
  @ApiNotFound()
  async searchIn(
    @Param('id') id: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendBody(reply, HttpStatus.OK, await this.portal.searchIn(id, parseSearchParams(queryOf(req))));
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
