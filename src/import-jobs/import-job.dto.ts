import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { ErrorBodyDto, QUERY_PARAMETERS } from '../import-logs/import-log.dto';
import type { ImportTimings } from '../import-logs/import-log.types';
import { ImportTimingsDto } from '../import-logs/import-timings.dto';
import {
  ImportJobDocument,
  ImportLogSummary,
  JOB_PHASES,
  JOB_STATES,
  JobPhase,
  JobProgress,
  JobState,
} from './import-job.types';

/** OpenAPI shapes of the job endpoints; the types they document are in import-job.types. */

/**
 * An object of `model`'s schema, or null. `nullable` beside a `$ref` (what `nullable: true` with a
 * class type gives) does not let null through in OpenAPI 3.0.3, whose `nullable` widens only a
 * `type` of the same schema; this says null as its own alternative. The jobs controller registers
 * the models (`ApiExtraModels`).
 */
function nullableModel(model: new () => object, description: string): ApiPropertyOptions {
  return {
    oneOf: [{ $ref: getSchemaPath(model) }, { type: 'object', nullable: true, enum: [null] }],
    description,
  };
}

class SourcesProgressDto {
  @ApiProperty({ description: 'Sources (documents, entries, files) read' })
  done!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'All sources; null until the body is unpacked' })
  total!: number | null;
}

class BytesProgressDto {
  @ApiProperty({ description: 'Bytes of the sources read' })
  read!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Bytes of all sources, when known' })
  total!: number | null;
}

export class JobProgressDto implements JobProgress {
  @ApiProperty({ type: SourcesProgressDto })
  sources!: SourcesProgressDto;
  @ApiProperty({ type: BytesProgressDto })
  bytes!: BytesProgressDto;
  @ApiProperty({ description: 'Items read (produced or refused by the readers)' })
  items!: number;
  @ApiProperty({ description: 'Main items created so far' })
  created!: number;
  @ApiProperty()
  updated!: number;
  @ApiProperty()
  unchanged!: number;
  @ApiProperty({ description: 'Items refused so far (skipped with tolerant=true)' })
  errors!: number;
}

export class ImportLogSummaryDto implements ImportLogSummary {
  @ApiProperty()
  created!: number;
  @ApiProperty()
  updated!: number;
  @ApiProperty()
  unchanged!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Items skipped with tolerant=true: key → message',
  })
  errors!: Record<string, string>;
  @ApiProperty({ type: String, nullable: true })
  message!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The stored log id; null for a dry run' })
  event!: string | null;
  @ApiPropertyOptional({ type: ImportTimingsDto, description: 'Where the import’s time went, by phase' })
  timings?: ImportTimings;
}

export class ImportJobDto implements ImportJobDocument {
  @ApiProperty()
  id!: string;
  @ApiProperty({ example: 'ead' })
  endpoint!: string;
  @ApiProperty({ description: "The acting user: the import token's user, or X-User for a token of none" })
  user!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The id of the token that started the import (`token list`); null for the command line',
  })
  tokenId!: string | null;
  @ApiProperty({ type: String, nullable: true })
  scope!: string | null;
  @ApiProperty(QUERY_PARAMETERS)
  parameters!: Record<string, string | string[]>;
  @ApiProperty()
  commit!: boolean;
  @ApiProperty({
    enum: JOB_STATES,
    description: 'rolled-back: a dry run that finished; failed: an error, or interrupted by a stop',
  })
  state!: JobState;
  // Null among the values too: OpenAPI 3.0.3's `nullable` does not widen an enum.
  @ApiProperty({
    type: 'string',
    enum: [...JOB_PHASES, null],
    nullable: true,
    description: 'Null while waiting and once finished',
  })
  phase!: JobPhase | null;
  @ApiProperty({ type: JobProgressDto })
  progress!: JobProgressDto;
  @ApiProperty({ format: 'date-time' })
  started!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finished!: string | null;
  @ApiProperty()
  elapsedSeconds!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Estimate from the bytes read so far' })
  remainingSeconds!: number | null;
  @ApiProperty(
    nullableModel(
      ImportLogSummaryDto,
      'Once finished: the import log; its id lists are at /import/logs/{event} when committed',
    ),
  )
  log!: ImportLogSummaryDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'The stored import log of a committed import' })
  event!: string | null;
  @ApiProperty(nullableModel(ErrorBodyDto, 'Why it failed or was cancelled'))
  error!: ErrorBodyDto | null;
}

export class ImportJobListDto {
  @ApiProperty({ type: [ImportJobDto] })
  items!: ImportJobDto[];
}
