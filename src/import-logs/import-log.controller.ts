import { applyDecorators, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireRole } from '../auth/bearer-auth.guard';
import { badRequest, notFound } from '../import/import-errors';
import { positiveInteger, RawQuery, rawQueryOf, single } from '../import/import-params';
import { ChangesPageDto } from './change-records.dto';
import { ImportLogItemsPageDto, ImportLogListPageDto } from './import-log-items.dto';
import { ErrorBodyDto, ImportLogRecordDto } from './import-log.dto';
import { ImportLogService } from './import-log.service';
import {
  IMPORT_OUTCOMES,
  ImportLogQuery,
  ImportLogRecord,
  ImportOutcomeName,
  ITEM_CHANGES,
  ItemChange,
} from './import-log.types';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** Past any page a store holds, and low enough that its offset is an integer every store takes. */
const MAX_PAGE = 1_000_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const END_OF_DAY = 'T23:59:59.999Z';

interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

/** The `page` and `limit` parameters of the paged routes. */
function pageOf(query: RawQuery): PageRequest {
  const page = positiveInteger(query, 'page', 1, MAX_PAGE);
  const limit = positiveInteger(query, 'limit', DEFAULT_LIMIT, MAX_LIMIT);
  return { page, limit, offset: (page - 1) * limit };
}

/** Describes `page` and `limit` in OpenAPI, as `pageOf` reads them. */
function ApiPageQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      type: 'integer',
      minimum: 1,
      maximum: MAX_PAGE,
      description: `1-based page number, at most ${MAX_PAGE}`,
      example: 1,
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      type: 'integer',
      minimum: 1,
      maximum: MAX_LIMIT,
      description: `Page size, at most ${MAX_LIMIT}`,
      example: DEFAULT_LIMIT,
    }),
  );
}

/** An ISO 8601 bound; a date alone means the start of that day (`from`) or its end (`to`). */
function timeBound(query: RawQuery, name: 'from' | 'to'): string | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const text = name === 'to' && DATE_ONLY.test(value) ? `${value}${END_OF_DAY}` : value;
  const time = new Date(text);
  if (Number.isNaN(time.getTime())) {
    throw badRequest(`Parameter "${name}" must be an ISO 8601 date or time, got "${value}"`);
  }
  return time.toISOString();
}

function outcome(query: RawQuery): ImportOutcomeName | undefined {
  const value = single(query, 'outcome');
  if (value !== undefined && !(IMPORT_OUTCOMES as readonly string[]).includes(value)) {
    throw badRequest(`Parameter "outcome" must be one of ${IMPORT_OUTCOMES.join(', ')}, got "${value}"`);
  }
  return value as ImportOutcomeName | undefined;
}

@ApiTags('import logs')
@ApiResponse({ status: 401, description: 'No valid bearer token', type: ErrorBodyDto })
@ApiResponse({ status: 403, description: 'The token is not of role ops', type: ErrorBodyDto })
@Controller('import/logs')
@RequireRole('ops')
export class ImportLogController {
  constructor(private readonly logs: ImportLogService) {}

  @Get()
  @ApiOperation({ summary: 'Stored import logs, newest first' })
  @ApiQuery({ name: 'user', required: false, description: 'Acting user (X-User) of the import' })
  @ApiQuery({ name: 'scope', required: false, description: 'Scope item id' })
  @ApiQuery({ name: 'endpoint', required: false, description: 'Import endpoint, e.g. ead' })
  @ApiQuery({ name: 'outcome', required: false, enum: IMPORT_OUTCOMES })
  @ApiQuery({ name: 'from', required: false, description: 'Started at or after (ISO 8601)' })
  @ApiQuery({
    name: 'to',
    required: false,
    description: 'Started at or before (ISO 8601; a date includes the day)',
  })
  @ApiPageQueries()
  @ApiResponse({ status: 200, type: ImportLogListPageDto })
  @ApiResponse({ status: 400, description: 'A malformed filter', type: ErrorBodyDto })
  async list(@Query() rawQuery: unknown): Promise<ImportLogListPageDto> {
    const query = rawQueryOf(rawQuery);
    const { page, limit, offset } = pageOf(query);
    const filters: ImportLogQuery = {
      user: single(query, 'user'),
      scope: single(query, 'scope'),
      endpoint: single(query, 'endpoint'),
      outcome: outcome(query),
      from: timeBound(query, 'from'),
      to: timeBound(query, 'to'),
      offset,
      limit,
    };
    const { total, records } = await this.logs.find(filters);
    return { total, page, limit, items: records };
  }

  @Get(':id/changes')
  @ApiOperation({ summary: 'What the updates of a stored import changed, item by item, before and after' })
  @ApiParam({ name: 'id', description: 'The log id' })
  @ApiQuery({ name: 'item', required: false, description: 'Only this item’s changes' })
  @ApiPageQueries()
  @ApiResponse({ status: 200, type: ChangesPageDto })
  @ApiResponse({ status: 400, description: 'A malformed parameter', type: ErrorBodyDto })
  @ApiResponse({ status: 404, description: 'No such log', type: ErrorBodyDto })
  async changes(@Param('id') id: string, @Query() rawQuery: unknown): Promise<ChangesPageDto> {
    const query = rawQueryOf(rawQuery);
    const { page, limit, offset } = pageOf(query);
    const item = single(query, 'item');
    const found = await this.logs.changes(id, { item, offset, limit });
    if (found === undefined) throw notFound(`Import log not found: ${id}`);
    return { total: found.total, page, limit, truncated: found.truncated, items: found.items };
  }

  @Get(':id/items')
  @ApiOperation({
    summary: 'The items a stored import created, updated or left unchanged, paged',
    description: 'Created ones first, then updated, then unchanged; each by source, in the order read.',
  })
  @ApiParam({ name: 'id', description: 'The log id' })
  @ApiQuery({ name: 'change', required: false, enum: ITEM_CHANGES, description: 'Only these items' })
  @ApiPageQueries()
  @ApiResponse({ status: 200, type: ImportLogItemsPageDto })
  @ApiResponse({ status: 400, description: 'A malformed parameter', type: ErrorBodyDto })
  @ApiResponse({ status: 404, description: 'No such log', type: ErrorBodyDto })
  async items(@Param('id') id: string, @Query() rawQuery: unknown): Promise<ImportLogItemsPageDto> {
    const query = rawQueryOf(rawQuery);
    const { page, limit, offset } = pageOf(query);
    const change = single(query, 'change');
    if (change !== undefined && !(ITEM_CHANGES as readonly string[]).includes(change)) {
      throw badRequest(`Parameter "change" must be one of ${ITEM_CHANGES.join(', ')}, got "${change}"`);
    }
    const changes = change === undefined ? ITEM_CHANGES : [change as ItemChange];
    const found = await this.logs.items(id, { changes, offset, limit });
    if (found === undefined) throw notFound(`Import log not found: ${id}`);
    return { total: found.total, page, limit, items: found.items };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One stored import log' })
  @ApiParam({ name: 'id', description: 'The log id (the `event` of the import answer)' })
  @ApiResponse({ status: 200, type: ImportLogRecordDto })
  @ApiResponse({ status: 404, description: 'No such log', type: ErrorBodyDto })
  async get(@Param('id') id: string): Promise<ImportLogRecord> {
    const record = await this.logs.get(id);
    if (record === undefined) throw notFound(`Import log not found: ${id}`);
    return record;
  }
}
