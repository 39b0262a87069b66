import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { LISTED_MESSAGE_CHARS, LISTED_TAGS } from './import-log-items';
import { ImportLogRecordDto } from './import-log.dto';
import {
  ImportLogCounts,
  ImportLogItem,
  ImportLogListItem,
  ITEM_CHANGES,
  ItemChange,
} from './import-log.types';
import { PageDto } from './page.dto';

/** OpenAPI shapes of the logs list (summaries) and of a log's items, paged. */

export class ImportLogCountsDto implements ImportLogCounts {
  @ApiProperty({ description: 'Main items created' })
  created!: number;
  @ApiProperty()
  updated!: number;
  @ApiProperty()
  unchanged!: number;
  @ApiProperty({ description: 'Items skipped with tolerant=true (their messages are in the log itself)' })
  errors!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: `The log message, its first ${LISTED_MESSAGE_CHARS} characters (then …)`,
  })
  message!: string | null;
  @ApiProperty({ type: String, nullable: true })
  event!: string | null;
}

export class ImportLogListItemDto
  extends OmitType(ImportLogRecordDto, ['log', 'result', 'touched', 'tags'] as const)
  implements ImportLogListItem
{
  @ApiProperty({ type: [String], description: `Tags of the first ${LISTED_TAGS} sources read, in order` })
  tags!: string[];
  @ApiProperty({ description: 'How many sources the import read' })
  tagCount!: number;
  @ApiProperty({ description: 'How many items the import created, updated or deleted' })
  touchedCount!: number;
  @ApiPropertyOptional({ type: ImportLogCountsDto, description: 'Absent when the import failed' })
  log?: ImportLogCountsDto;
}

export class ImportLogListPageDto extends PageDto {
  @ApiProperty({ description: 'Logs matching the filters' })
  total!: number;
  @ApiProperty({
    type: [ImportLogListItemDto],
    description: 'Newest first, as summaries: counts, no item ids (GET /import/logs/{id}/items)',
  })
  items!: ImportLogListItemDto[];
}

export class ImportLogItemDto implements ImportLogItem {
  @ApiProperty()
  id!: string;
  @ApiProperty({ enum: ITEM_CHANGES })
  change!: ItemChange;
  @ApiProperty({ description: 'The tag of the source it came from' })
  tag!: string;
}

export class ImportLogItemsPageDto extends PageDto {
  @ApiProperty({ description: 'Items of the log (of the change asked for)' })
  total!: number;
  @ApiProperty({
    type: [ImportLogItemDto],
    description: 'Created, then updated, then unchanged; each by source',
  })
  items!: ImportLogItemDto[];
}
