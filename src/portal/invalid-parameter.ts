import { BadRequestException } from '@nestjs/common';

/** A 400 that names the offending query parameter (JSON:API `source.parameter`). */
export class InvalidParameterException extends BadRequestException {
  constructor(
    readonly parameter: string,
    detail: string,
  ) {
    super(detail);
  }
}
