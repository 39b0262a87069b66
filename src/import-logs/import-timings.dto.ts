import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ImportTimings } from './import-log.types';

const MS = { type: 'integer', minimum: 0 } as const;

/** OpenAPI shape of `ImportTimings`: wall milliseconds by phase, rounded down; the total rounded up. */
export class ImportTimingsDto implements ImportTimings {
  @ApiPropertyOptional({
    ...MS,
    description:
      'The request body arriving and spooled, and its sources prepared (archives unpacked, URLs fetched)',
  })
  receiving?: number;
  @ApiPropertyOptional({
    ...MS,
    description:
      "Waiting for the reader's next item (parsing, and building the items a reader builds as it reads). " +
      'A reader that parses in a thread of its own parses while the other phases run: only the waits count',
  })
  reading?: number;
  @ApiPropertyOptional({
    ...MS,
    description: 'Building deferred items and merging descriptions into stored ones',
  })
  building?: number;
  @ApiPropertyOptional({
    ...MS,
    description: 'Hash lookups, stored items read back and compared, deciding created/updated/unchanged',
  })
  comparing?: number;
  @ApiPropertyOptional({
    ...MS,
    description:
      "Store writes: items, hashes, the format's finishing step, and (in the job only) the change records and the log",
  })
  writing?: number;
  @ApiPropertyOptional({
    ...MS,
    description:
      "What the store does before it commits (paths, search warm-up; full-text indexing happens with the writes) and the commit itself; a dry run's rollback. Only in the job: the answer and the stored log end before the log is written",
  })
  committing?: number;
  @ApiProperty({
    ...MS,
    description:
      'From the request body arriving to the end of the last phase told, less the time waiting in the queue; the phases sum to at most it',
  })
  total!: number;
}
