import {
  Controller,
  Get,
  HttpStatus,
  PayloadTooLargeException,
  Post,
  Req,
  Res,
  UnsupportedMediaTypeException,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { RolesAllowed } from '../../auth/bearer-auth.guard';
import { PortalAuthGuard } from '../../portal/portal-auth.guard';
import { RateLimited } from '../../rate-limits/rate-limit.guard';
import { ApiOaiGet, ApiOaiPost } from './oai.openapi';
import { argumentPairs } from './oai-request';
import { OaiProvider } from './oai-provider';

/** Answers are XML as the protocol's own media type for them says (§3.1.2.1 of OAI-PMH 2.0). */
const OAI_MEDIA_TYPE = 'text/xml; charset=utf-8';
/** The most a form of OAI-PMH arguments holds: a few arguments and a resumption token. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * OAI-PMH 2.0 at `/oai` (docs/oai-pmh.md), by GET with the arguments in the query or by POST
 * with them as a form. Read as the portal is read: a token of role `portal` or `ops`, or none
 * when `PORTAL_AUTH=off`; counted by the portal's rate limit.
 */
@ApiTags('oai-pmh')
@Controller('oai')
@RateLimited('portal')
@RolesAllowed('portal', 'ops')
@UseGuards(PortalAuthGuard)
export class OaiController {
  constructor(private readonly provider: OaiProvider) {}

  @Get()
  @ApiOaiGet()
  async get(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const start = req.originalUrl.indexOf('?');
    await this.send(reply, argumentPairs(start === -1 ? '' : req.originalUrl.slice(start + 1)));
  }

  @Post()
  @ApiOaiPost()
  async post(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      throw new UnsupportedMediaTypeException(
        `OAI-PMH requests by POST are forms (application/x-www-form-urlencoded), not ${type || 'untyped'}`,
      );
    }
    await this.send(reply, argumentPairs(await formBody(req)));
  }

  private async send(reply: FastifyReply, pairs: [string, string][]): Promise<void> {
    const answer = await this.provider.answer(pairs);
    void reply.code(HttpStatus.OK).header('Content-Type', OAI_MEDIA_TYPE).send(Readable.from(answer));
  }
}

/** The request's form, read whole up to `MAX_FORM_BYTES` (the app leaves bodies unread). */
async function formBody(req: FastifyRequest): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) {
      throw new PayloadTooLargeException(`An OAI-PMH form holds at most ${MAX_FORM_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
