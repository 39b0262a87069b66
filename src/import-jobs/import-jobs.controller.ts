import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Query, Req, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AuthenticatedRequest, RequireRole } from '../auth/bearer-auth.guard';
import { TokenRevocations } from '../auth/token-revocations';
import { badRequest, ImportHttpError, notFound } from '../import/import-errors';
import { positiveInteger, RawQuery, rawQueryOf, single } from '../import/import-params';
import { ErrorBodyDto } from '../import-logs/import-log.dto';
import { ImportJobDto, ImportJobListDto, ImportLogSummaryDto } from './import-job.dto';
import { ImportJobDocument, JOB_STATES, JobFilter, JobState } from './import-job.types';
import { ImportJobsService, JobViewer } from './import-jobs.service';
import { EVENT_STREAM_HEADERS, PROGRESS_INTERVAL_MS, sendOutcome, streamJob } from './job-event-stream';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

function filterOf(query: RawQuery): JobFilter {
  const state = single(query, 'state');
  if (state !== undefined && !(JOB_STATES as readonly string[]).includes(state)) {
    throw badRequest(`Parameter "state" must be one of ${JOB_STATES.join(', ')}, got "${state}"`);
  }
  return {
    state: state as JobState | undefined,
    user: single(query, 'user'),
    endpoint: single(query, 'endpoint'),
  };
}

function viewerOf(request: AuthenticatedRequest): JobViewer {
  return { role: request.auth.role, user: request.auth.user, tokenId: request.auth.tokenId };
}

function jobNotFound(id: string): ImportHttpError {
  return notFound(`Import job not found: ${id}`);
}

/**
 * Imports as jobs (docs/import-jobs.md): running and recent ones, each with its progress, a stream of its
 * events, and a cancel. An import token sees the jobs of its user (and those it started); an ops
 * token sees all.
 */
@ApiTags('import jobs')
@ApiExtraModels(ImportLogSummaryDto, ErrorBodyDto)
@ApiResponse({ status: 401, description: 'No valid bearer token', type: ErrorBodyDto })
@ApiResponse({ status: 403, description: 'The token is not of role import or ops', type: ErrorBodyDto })
@Controller('import/jobs')
@RequireRole('import', 'ops')
export class ImportJobsController {
  constructor(
    private readonly jobs: ImportJobsService,
    private readonly revocations: TokenRevocations,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Running and recent import jobs, newest first' })
  @ApiQuery({ name: 'state', required: false, enum: JOB_STATES })
  @ApiQuery({ name: 'user', required: false, description: 'Acting user (X-User) of the import' })
  @ApiQuery({ name: 'endpoint', required: false, description: 'Import endpoint, e.g. ead' })
  @ApiQuery({
    name: 'limit',
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    description: `At most ${MAX_LIMIT}`,
    example: DEFAULT_LIMIT,
  })
  @ApiResponse({ status: 200, type: ImportJobListDto })
  @ApiResponse({ status: 400, description: 'A malformed filter', type: ErrorBodyDto })
  async list(@Query() rawQuery: unknown, @Req() request: AuthenticatedRequest): Promise<ImportJobListDto> {
    const query = rawQueryOf(rawQuery);
    const items = await this.jobs.list(
      filterOf(query),
      viewerOf(request),
      positiveInteger(query, 'limit', DEFAULT_LIMIT, MAX_LIMIT),
    );
    return { items };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One import job: state, phase, progress, and once finished its log' })
  @ApiParam({ name: 'id', description: 'The job id (Location of a 202 answer)' })
  @ApiResponse({ status: 200, type: ImportJobDto })
  @ApiResponse({
    status: 404,
    description: 'No such job (or not one this token may see)',
    type: ErrorBodyDto,
  })
  async get(@Param('id') id: string, @Req() request: AuthenticatedRequest): Promise<ImportJobDocument> {
    const job = await this.jobs.get(id, viewerOf(request));
    if (job === undefined) throw jobNotFound(id);
    return job;
  }

  @Get(':id/events')
  @ApiOperation({
    summary: 'Server-Sent Events of an import job',
    description:
      `"progress" events (the job document) at most every ${PROGRESS_INTERVAL_MS} ms while it runs, ` +
      'then one "outcome" event (the job document, finished), which ends the stream. A finished ' +
      "job's stream is its outcome alone. The stream ends, without an outcome, once its token is " +
      'revoked.',
  })
  @ApiParam({ name: 'id', description: 'The job id' })
  @ApiResponse({
    status: 200,
    description: 'The events: `event: progress` or `outcome`, `data:` an ImportJob as JSON',
    content: {
      'text/event-stream': {
        // Each event of the stream, as OpenAPI 3.2 and API testers read text/event-stream.
        schema: {
          type: 'object',
          properties: {
            event: { type: 'string', enum: ['progress', 'outcome'] },
            data: { type: 'string', description: 'An ImportJob as JSON' },
          },
          required: ['event', 'data'],
        },
      },
    },
  })
  @ApiResponse({
    status: 404,
    description: 'No such job',
    content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } },
  })
  async events(
    @Param('id') id: string,
    @Req() request: AuthenticatedRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const viewer = viewerOf(request);
    const live = this.jobs.liveJob(id, viewer);
    const stored = live === undefined ? await this.jobs.get(id, viewer) : undefined;
    if (live === undefined && stored === undefined) throw jobNotFound(id);
    reply.hijack();
    reply.raw.writeHead(HttpStatus.OK, EVENT_STREAM_HEADERS);
    if (live !== undefined) streamJob(reply.raw, live);
    else sendOutcome(reply.raw, stored!);
    // A stream lasts no longer than its token: revoked, the stream ends without another event.
    if (!reply.raw.writableEnded && !reply.raw.destroyed) {
      const unwatch = this.revocations.watch(request.auth.tokenId, () => reply.raw.end());
      reply.raw.once('close', unwatch);
    }
  }

  @Delete(':id')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Cancel an import job',
    description:
      'Stops the import and rolls it back: nothing of it is written. Answers once it has stopped, ' +
      "with the job (state cancelled); a committed import's stored log says cancelled. A job another " +
      'HTTP worker runs is cancelled by that worker.',
  })
  @ApiParam({ name: 'id', description: 'The job id' })
  @ApiResponse({ status: 200, type: ImportJobDto })
  @ApiResponse({ status: 404, description: 'No such job', type: ErrorBodyDto })
  @ApiResponse({
    status: 409,
    description: 'The job has already finished (or the process running it has stopped)',
    type: ErrorBodyDto,
  })
  async cancel(@Param('id') id: string, @Req() request: AuthenticatedRequest): Promise<ImportJobDocument> {
    const result = await this.jobs.cancel(id, viewerOf(request));
    if (result === undefined) throw jobNotFound(id);
    if ('refused' in result) throw new ImportHttpError(result.refused.status, result.refused.details);
    return result.cancelled;
  }
}
