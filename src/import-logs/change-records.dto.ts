import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { ChangesSummary } from './import-log.types';
import { PageDto } from './page.dto';

/** OpenAPI shapes of what an import's updates changed (`GET /import/logs/{id}/changes`). */

const CHANGE_VALUE: ApiPropertyOptions = {
  description:
    'A field value (string, number, boolean or a list of them), a list of edge targets, or a whole ' +
    'dependent node ({type, data, relations?}) when one was added or removed',
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } },
    { type: 'object', additionalProperties: true },
  ],
};

export class FieldChangeDto {
  @ApiProperty({
    description:
      'Where: a data field (`name`), a dependent node (`describes[<id>]`), a field of one ' +
      '(`describes[<id>].title`, deeper alike), or an edge type (`edges.heldBy`)',
    example: 'describes[nl-r1-c1.eng].scopeAndContent',
  })
  path!: string;
  @ApiProperty({ enum: ['added', 'removed', 'changed'] })
  change!: 'added' | 'removed' | 'changed';
  @ApiPropertyOptional({ ...CHANGE_VALUE })
  before?: unknown;
  @ApiPropertyOptional({ ...CHANGE_VALUE })
  after?: unknown;
}

export class ItemChangesDto {
  @ApiProperty({ description: 'The updated item' })
  item!: string;
  @ApiProperty({ example: 'DocumentaryUnit' })
  type!: string;
  @ApiProperty({ type: [FieldChangeDto] })
  changes!: FieldChangeDto[];
}

export class ChangesSummaryDto implements ChangesSummary {
  @ApiProperty({ description: 'Updated items whose changes the log keeps' })
  count!: number;
  @ApiProperty({
    description:
      'Whether the size cap (IMPORT_CHANGES_MAX_BYTES) cut the changes: later updated items are in updated_keys only',
  })
  truncated!: boolean;
}

export class ChangesPageDto extends PageDto {
  @ApiProperty({ description: 'Change records matching the request' })
  total!: number;
  @ApiProperty({ description: 'Whether the size cap cut the log’s changes (see ChangesSummary)' })
  truncated!: boolean;
  @ApiProperty({ type: [ItemChangesDto], description: 'In the order the updates were written' })
  items!: ItemChangesDto[];
}
