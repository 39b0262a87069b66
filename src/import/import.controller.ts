import { applyDecorators, Controller, HttpStatus, Logger, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiQuery,
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
import { ImportService } from './import.service';

/** The formats the service reads (docs/formats.md). */
const BUILT_IN_FORMATS = ['ead', 'ead-sync', 'eag', 'eac', 'skos', 'csv', 'links', 'coreferences'];

const BOOLEAN_PARAMETERS: [string, string][] = [
  ['commit', 'Apply the changes; otherwise a dry run that reports what would happen'],
  ['tolerant', 'Skip invalid items (listed under errors) instead of failing'],
  ['allow-update', 'Allow changing existing items; otherwise an update fails the import'],
  ['use-source-id', 'A description replaces one with the same language and source file id (eadid)'],
];

const TEXT_PARAMETERS: [string, string][] = [
  ['scope', 'Id of the scope item (repository, country, set, vocabulary, unit)'],
  ['log', 'Log message, or the path of a file inside the import roots holding it'],
  ['lang', 'Default description language (ISO 639 code), default eng'],
  ['tag', 'Tag of a single-document body, default -'],
  ['handler', "Reader by short name or the reference's class name"],
  ['importer', "Reader by short name or the reference's class name"],
  ['properties', 'A path=field mapping file: path inside the import roots, or URL'],
];

/** Parameters only some formats read; the others ignore them. */
const FORMAT_PARAMETERS: [string, string][] = [
  [
    'missing-unitid',
    'ead, ead-sync: a unit without unitid, or whose unitid slugifies to nothing (---): error (default), attribute (the component id) or position (among siblings)',
  ],
  [
    'duplicate-unitid',
    'ead, ead-sync, csv units: a unit whose id an earlier sibling of the same document has: error (default; refused with its descendants, naming both) or position (kept, suffixed _2, _3, … by occurrence)',
  ],
  ['fonds', 'ead-sync: a unit inside the scope; only its subtree is synchronised (default: the whole scope)'],
  ['format', 'skos: Turtle, N-Triples, N3, RDF/XML (default), JSON-LD, or a media type'],
  ['baseURI', 'skos: URI prefix removed from concept URIs to make their local ids'],
  ['suffix', 'skos: URI suffix removed from concept URIs to make their local ids'],
  ['concept-scheme', 'skos: import only the concepts in this scheme (URI)'],
  ['field-separator', 'csv: one character between cells, default ,'],
  ['array-separator', 'csv: separator of the values in one cell, default ||'],
];

function ApiImportParameters(): MethodDecorator {
  return applyDecorators(
    ...BOOLEAN_PARAMETERS.map(([name, description]) =>
      ApiQuery({ name, required: false, type: Boolean, description }),
    ),
    ...[...TEXT_PARAMETERS, ...FORMAT_PARAMETERS].map(([name, description]) =>
      ApiQuery({ name, required: false, type: String, description }),
    ),
    ApiQuery({
      name: 'ex',
      required: false,
      type: String,
      isArray: true,
      description: 'ead-sync: ids of units the sync leaves alone, with their descendants (repeatable)',
    }),
  );
}

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying (a full import queue)',
    schema: { type: 'integer', minimum: 1 },
  },
};

function ApiImportErrors(): MethodDecorator {
  const errors: [number, string][] = [
    [
      400,
      'Bad input: parse or validation error, update not allowed, unknown handler, unknown X-User, ' +
        'empty body, a body cut short, a limit passed (unit depth, id length)',
    ],
    [401, 'No valid bearer token'],
    [403, 'The token is not of role import'],
    [404, 'Unknown format or scope'],
    [
      413,
      "Body or archive over the configured limits, or a transaction over the Neo4j server's memory limit: names the limit and the setting to raise",
    ],
    [507, 'No room to write in the temporary folder or the store: names the folder'],
    [415, 'A Content-Type that cannot be parsed'],
    [
      429,
      'This user holds IMPORT_QUEUE_MAX_JOBS_PER_USER imports (received, queued or running), or their ' +
        'bodies would pass IMPORT_QUEUE_MAX_BYTES_PER_USER: refused before the body is read; Retry-After ' +
        'says when to retry',
    ],
    [
      503,
      'Shutting down (the import refused, or interrupted and rolled back), the store is read-only or ' +
        'does not answer, or ' +
        'the service holds IMPORT_QUEUE_MAX_JOBS imports or IMPORT_QUEUE_MAX_BYTES of their bodies ' +
        '(refused before the body is read, with Retry-After)',
    ],
  ];
  return applyDecorators(
    ...errors.map(([status, description]) =>
      ApiResponse({
        status,
        description,
        type: ErrorBodyDto,
        // The queue's refusals say when to retry.
        ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      }),
    ),
  );
}

@ApiTags('import')
@Controller('import')
export class ImportController {
  private readonly logger = new Logger(ImportController.name);

  constructor(private readonly imports: ImportService) {}

  @Post(':format')
  @RequireRole('import')
  @ApiOperation({
    summary: 'Import data in one transaction',
    description:
      'The body is one document (application/xml, text/xml), local paths inside the import roots ' +
      '(text/plain, one per line), a JSON object of name → URL (application/json), or a zip, tar ' +
      'or tar.gz archive (anything else). Formats that read their body whole (skos, csv, links, ' +
      'coreferences) take it as it is.',
  })
  @ApiParam({
    name: 'format',
    enum: BUILT_IN_FORMATS,
    description: 'The format of the body; any other is 404',
  })
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
  @ApiImportParameters()
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
