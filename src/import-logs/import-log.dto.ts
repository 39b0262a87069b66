import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { ChangesSummaryDto } from './change-records.dto';
import {
  ErrorBody,
  IMPORT_OUTCOMES,
  ImportLogDocument,
  ImportLogRecord,
  ImportOutcomeName,
  ImportTimings,
} from './import-log.types';
import { ImportTimingsDto } from './import-timings.dto';

/** OpenAPI shapes of the import interface's answers; the types they document are in import-log.types. */

/** An import's query parameters as given: a repeated one is a list. */
export const QUERY_PARAMETERS: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  description: 'The query parameters as given',
};

const IDS_BY_TAG = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'string' } },
  example: { 'ead.xml': ['nl-r1-test_doc'] },
} as const;

export class ImportLogDocumentDto implements ImportLogDocument {
  @ApiProperty({ description: 'Main items created (descriptions are not counted)' })
  created!: number;
  @ApiProperty({ ...IDS_BY_TAG, description: 'Ids created, by source tag' })
  created_keys!: Record<string, string[]>;
  @ApiProperty()
  updated!: number;
  @ApiProperty({ ...IDS_BY_TAG, description: 'Ids updated, by source tag' })
  updated_keys!: Record<string, string[]>;
  @ApiProperty()
  unchanged!: number;
  @ApiProperty({ ...IDS_BY_TAG, description: 'Ids unchanged, by source tag' })
  unchanged_keys!: Record<string, string[]>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Items skipped with tolerant=true: key → message',
  })
  errors!: Record<string, string>;
  @ApiProperty({ type: String, nullable: true, description: 'The log message' })
  message!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The stored log id; null for a dry run' })
  event!: string | null;
  @ApiPropertyOptional({ type: ImportTimingsDto, description: 'Where the import’s time went, by phase' })
  timings?: ImportTimings;
}

/** What `POST /import/ead-sync` answers instead of the bare import log. */
export class EadSyncAnswerDto {
  @ApiProperty({ type: ImportLogDocumentDto, description: 'The import log' })
  log!: ImportLogDocument;
  @ApiProperty({ type: [String], description: 'Units created, except the new places of moved units' })
  created!: string[];
  @ApiProperty({ type: [String], description: 'Units of the scope the incoming data no longer has' })
  deleted!: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Old id → new id of the units found under another parent',
  })
  moved!: Record<string, string>;
}

export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ example: 400 })
  status!: number;
  @ApiProperty({ example: 'Bad Request', description: 'The status reason phrase' })
  error!: string;
  @ApiProperty({
    oneOf: [
      { type: 'string' },
      {
        type: 'object',
        properties: {
          message: { type: 'string' },
          tag: { type: 'string', description: 'The source (document, archive entry, file) at fault' },
          line: { type: 'integer', description: 'Line in that source, from 1' },
          column: { type: 'integer', description: 'Column in that line, from 1' },
          key: { type: 'string', description: 'The item (or key) at fault' },
          id: { type: 'string', description: 'The existing item an update was refused for' },
          paths: {
            type: 'array',
            items: { type: 'string' },
            description: 'Paths of a path list that are not readable files inside the import roots',
          },
          folders: {
            type: 'array',
            items: { type: 'string' },
            description: 'The folders with no room to write (507)',
          },
        },
        required: ['message'],
        additionalProperties: false,
      },
    ],
    description: 'A message, or for input errors the message with where it happened',
  })
  details!: ErrorBody['details'];
  @ApiPropertyOptional({ description: 'The request id (X-Request-Id), as the server logs it' })
  requestId?: string;
}

export class ImportLogRecordDto implements ImportLogRecord {
  @ApiProperty()
  id!: string;
  @ApiProperty({ example: 'ead', description: 'The import endpoint, POST /import/{endpoint}' })
  endpoint!: string;
  @ApiProperty(QUERY_PARAMETERS)
  parameters!: Record<string, string | string[]>;
  @ApiProperty({ description: "The acting user: the import token's user, or X-User for a token of none" })
  user!: string;
  @ApiPropertyOptional({
    description: 'The id of the token that acted (`token list`); absent for a command line import',
  })
  tokenId?: string;
  @ApiPropertyOptional()
  scope?: string;
  @ApiPropertyOptional({ description: 'The id of the request that started the import (X-Request-Id)' })
  requestId?: string;
  @ApiProperty({ type: [String], description: 'Tags of the sources read, in order' })
  tags!: string[];
  @ApiPropertyOptional({ type: ImportLogDocumentDto, description: 'Absent when the import failed' })
  log?: ImportLogDocument;
  @ApiPropertyOptional({
    type: EadSyncAnswerDto,
    description: 'The answer, when the format shapes it differently from the log (ead-sync)',
  })
  result?: Record<string, unknown>;
  @ApiPropertyOptional({ type: ChangesSummaryDto, description: 'What the log keeps of its updates’ changes' })
  changes?: ChangesSummaryDto;
  @ApiProperty({ type: [String], description: 'Ids the import created, updated or deleted' })
  touched!: string[];
  @ApiProperty({
    enum: IMPORT_OUTCOMES,
    description: 'interrupted: cancelled and rolled back because the service was shutting down',
  })
  outcome!: ImportOutcomeName;
  @ApiPropertyOptional({ type: ErrorBodyDto })
  error?: ErrorBody;
  @ApiProperty({ format: 'date-time' })
  started!: string;
  @ApiProperty({ format: 'date-time' })
  finished!: string;
}
