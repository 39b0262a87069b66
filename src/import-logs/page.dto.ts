import { ApiProperty } from '@nestjs/swagger';

/** What a page of a list answers besides its total and its items: which page, of what size. */
export class PageDto {
  @ApiProperty({ description: 'The page asked for, from 1' })
  page!: number;
  @ApiProperty({ description: 'Entries per page' })
  limit!: number;
}
