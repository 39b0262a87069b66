import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '../import-logs/import-log.dto';
import { FormatDeclaration, FormatParameter } from './formats/format-reader';
import { IMPORT_FORMATS } from './formats/formats.module';

/**
 * The OpenAPI description of `POST /import/{format}`: its formats, their parameters and its
 * errors. What a format reads is its declaration's (`formats.module.ts` lists them), so that a new
 * format is documented without a change here.
 */

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

/** A parameter that some formats read, with the formats that read it. */
interface SharedParameter {
  parameter: FormatParameter;
  formats: string[];
}

/** The formats' own parameters, each once, named by the formats that read it, in registry order. */
function formatParameters(formats: readonly FormatDeclaration[]): SharedParameter[] {
  const byName = new Map<string, SharedParameter>();
  for (const format of formats) {
    for (const parameter of format.parameters) {
      const shared = byName.get(parameter.name);
      if (shared === undefined) byName.set(parameter.name, { parameter, formats: [format.name] });
      else shared.formats.push(format.name);
    }
  }
  return [...byName.values()];
}

/** The operation, its `format` and its query parameters, from the formats' declarations. */
export function ApiImportFormats(): MethodDecorator {
  const formats = IMPORT_FORMATS;
  const whole = formats.filter((format) => format.input === 'raw').map((format) => format.name);
  return applyDecorators(
    ApiOperation({
      summary: 'Import data in one transaction',
      description:
        'The body is one document (application/xml, text/xml), local paths inside the import roots ' +
        '(text/plain, one per line), a JSON object of name → URL (application/json), or a zip, tar ' +
        `or tar.gz archive (anything else). Formats that read their body whole (${whole.join(', ')}) ` +
        'take it as it is.',
    }),
    ApiParam({
      name: 'format',
      enum: formats.map((format) => format.name),
      description:
        'The format of the body; any other is 404.\n\n' +
        formats.map((format) => `- ${format.name}: ${format.summary}`).join('\n'),
    }),
    ...BOOLEAN_PARAMETERS.map(([name, description]) =>
      ApiQuery({ name, required: false, type: Boolean, description }),
    ),
    ...TEXT_PARAMETERS.map(([name, description]) =>
      ApiQuery({ name, required: false, type: String, description }),
    ),
    // Parameters only some formats read; the others ignore them.
    ...formatParameters(formats).map(({ parameter, formats: readers }) =>
      ApiQuery({
        name: parameter.name,
        required: false,
        type: String,
        ...(parameter.repeatable === true ? { isArray: true } : {}),
        description: `${readers.join(', ')}: ${parameter.description}`,
      }),
    ),
  );
}

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying (a full import queue)',
    schema: { type: 'integer', minimum: 1 },
  },
};

export function ApiImportErrors(): MethodDecorator {
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
