import { Controller, HttpStatus, Logger, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AuthenticatedRequest, RequireRole } from '../auth/bearer-auth.guard';
import { ImportJobDto } from '../import-jobs/import-job.dto';
import { EadSyncAnswerDto, ErrorBodyDto, ImportLogDocumentDto } from '../import-logs/import-log.dto';
import { requestIdOf } from '../observability/request-log.middleware';
import { rawQueryOf } from './import-params';
import { ApiImportErrors, ApiImportFormats } from './import.openapi';
import { ImportService } from './import.service';

@ApiTags('import')
@Controller('import')
export class ImportController {
  private readonly logger = new Logger(ImportController.name);

  constructor(private readonly imports: ImportService) {}

  @Post(':format')
  @RequireRole('import')
  @ApiImportFormats()
  @ApiHeader({
    name: 'X-User',
    required: false,
    description:
      'Id of the acting user. A token issued to a user acts as that user: X-User may be left out, ' +
      'and any other user is 403. A token issued to no user must name a known user here.',
  })
  @ApiHeader({
    name: 'Prefer',
    required: false,
    description:
      'respond-async (RFC 7240): answer 202 with the job as soon as the body is in, rather than 201 ' +
      'with the import log at the end',
  })
  @ApiConsumes('application/xml', 'text/xml', 'text/plain', 'application/json', 'application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiExtraModels(ImportLogDocumentDto, EadSyncAnswerDto)
  @ApiResponse({
    status: 201,
    description:
      'The import log (what was, or would be, done); ead-sync answers {log, created, deleted, moved}',
    schema: {
      oneOf: [{ $ref: getSchemaPath(ImportLogDocumentDto) }, { $ref: getSchemaPath(EadSyncAnswerDto) }],
    },
  })
  @ApiResponse({
    status: 202,
    description:
      'With Prefer: respond-async, the import is a job that goes on: its document, and its URL in ' +
      'Location (/import/jobs/{id})',
    type: ImportJobDto,
  })
  @ApiResponse({
    status: 409,
    description: 'The import was cancelled (its job) and rolled back',
    type: ErrorBodyDto,
  })
  @ApiImportErrors()
  async import(
    @Param('format') format: string,
    @Req() request: AuthenticatedRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // Read here rather than with @Headers(), which would document each header a second time, under
    // its lower-case name and as required. Node joins a repeated header other than Set-Cookie.
    const user = request.headers['x-user'] as string | undefined;
    const prefer = request.headers.prefer as string | undefined;
    const importRequest = {
      endpoint: format,
      user,
      query: rawQueryOf(request.query),
      contentType: request.headers['content-type'],
      // Unread: the app's one body parser leaves every body to the import run (app.setup.ts).
      body: request.raw,
      tokenId: request.auth.tokenId,
      tokenUser: request.auth.user,
      requestId: requestIdOf(request.raw),
    };
    const send = async (status: number, headers: Record<string, string>, chunks: Readable) => {
      // Written to Node's response itself, which Fastify then leaves alone.
      reply.hijack();
      // With the headers set on Fastify's reply, which hijacking leaves unsent.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.raw.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      await pipeline(chunks, reply.raw).catch((error: unknown) =>
        // The import has its job and stored log: a client that left only misses the answer.
        this.logger.warn({ req: request.raw, err: error, msg: 'The answer of an import was not sent whole' }),
      );
    };
    await this.imports.import(importRequest, {
      accepted: respondAsync(prefer)
        ? (job) =>
            send(
              HttpStatus.ACCEPTED,
              { Location: `/import/jobs/${job.id}`, 'Preference-Applied': 'respond-async' },
              Readable.from([JSON.stringify(job)]),
            )
        : undefined,
      // In pieces, as the run wrote it: the answer of a large import lists every id it touched.
      done: (file) => send(HttpStatus.CREATED, {}, createReadStream(file)),
    });
  }
}

/** Whether a `Prefer` header (RFC 7240) asks for `respond-async`. */
export function respondAsync(prefer: string | undefined): boolean {
  return (prefer ?? '')
    .split(',')
    .some((preference) => preference.split(';')[0].trim().toLowerCase() === 'respond-async');
}
