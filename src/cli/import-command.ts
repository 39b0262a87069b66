import { Command } from 'commander';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FormatRegistry } from '../import/format-registry';
import type { FormatDeclaration } from '../import/formats/format-reader';
import type { ImportService } from '../import/import.service';
import type { ErrorBody } from '../import-logs/import-log.types';
import type { UsersService } from '../auth/users.service';
import { CLI_COMMAND } from '../start/start-guide';
import { CliError, CliOutput } from './cli-output';
import { showProgress, ProgressOutput } from './import-progress';

/** What the import command needs, opened for it alone (`CliImportModule`). */
export interface CliImportServices {
  imports: ImportService;
  formats: FormatRegistry;
  users: UsersService;
  /** The error body the HTTP interface would answer for an import's error. */
  errorBody(error: unknown): ErrorBody;
}

/** Opens the import services with `roots` as the import roots, and closes them afterwards. */
export type ImportServicesRunner = <T>(
  roots: string[],
  work: (services: CliImportServices) => Promise<T>,
) => Promise<T>;

interface ImportOptions {
  scope: string;
  commit?: boolean;
  tolerant?: boolean;
  allowUpdate?: boolean;
  user?: string;
  lang?: string;
  tag?: string;
  param: string[];
}

const ARCHIVE = /\.(zip|tar|tar\.gz|tgz)$/i;
/** Media types by extension, for formats that read their one file as it is. */
const MEDIA_TYPES: Record<string, string> = {
  '.xml': 'application/xml',
  '.rdf': 'application/rdf+xml',
  '.ttl': 'text/turtle',
  '.nt': 'application/n-triples',
  '.n3': 'text/n3',
  '.jsonld': 'application/ld+json',
  '.csv': 'text/csv',
};

/** The files the paths name, a folder's (not hidden) in name order, each as an absolute path. */
async function filesOf(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const given of paths) {
    const absolute = path.resolve(given);
    if (!(await stat(absolute)).isDirectory()) {
      files.push(absolute);
      continue;
    }
    const entries = await readdir(absolute, { recursive: true, withFileTypes: true });
    const found = entries
      .filter(
        (entry) =>
          entry.isFile() &&
          !path
            .relative(absolute, path.join(entry.parentPath, entry.name))
            .split(path.sep)
            .some((part) => part.startsWith('.')),
      )
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    files.push(...found);
  }
  if (files.length === 0) throw new CliError(`${paths.join(', ')}: no files there (hidden ones are skipped)`);
  return files;
}

/** A file as a request body: a stream with the headers the import reads. */
function bodyOf(file: string, size: number): IncomingMessage {
  return Object.assign(createReadStream(file), {
    headers: { 'content-length': String(size) },
  }) as unknown as IncomingMessage;
}

/**
 * The request the paths make: one file as it is (a format that reads its body whole, an archive,
 * or one document), or else a path list, which the import reads inside `roots`.
 */
async function requestOf(
  files: string[],
  raw: boolean,
): Promise<{ body: IncomingMessage; contentType: string; tag?: string }> {
  if (files.length === 1 && (raw || ARCHIVE.test(files[0]) || files[0].toLowerCase().endsWith('.xml'))) {
    const [file] = files;
    const contentType = ARCHIVE.test(file)
      ? 'application/octet-stream'
      : (MEDIA_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
    return { body: bodyOf(file, (await stat(file)).size), contentType, tag: path.basename(file) };
  }
  if (raw) throw new CliError('this format reads one file at a time: name one file');
  const list = `${files.join('\n')}\n`;
  const body = Object.assign(Readable.from([Buffer.from(list)]), {
    headers: {},
  }) as unknown as IncomingMessage;
  return { body, contentType: 'text/plain' };
}

/** What `import --help` says of the formats: each one's summary and its own parameters. */
function formatsHelp(formats: readonly FormatDeclaration[]): string {
  const width = Math.max(...formats.map((format) => format.name.length)) + 2;
  const lines = formats.flatMap((format) => [
    `  ${format.name.padEnd(width)}${format.summary}`,
    ...format.parameters.map(
      (parameter) => `  ${''.padEnd(width)}  --param ${parameter.name}=…: ${parameter.description}`,
    ),
  ]);
  return `\nFormats:\n${lines.join('\n')}`;
}

/**
 * The `--param name=value` options as query parameters, each one the format declares (an unknown
 * format is left for the import to refuse); a repeated one is a list, as in a query.
 */
function formatQuery(
  format: string,
  params: readonly string[],
  formats: readonly FormatDeclaration[],
): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  const declaration = formats.find((candidate) => candidate.name === format);
  const declared = declaration?.parameters ?? [];
  for (const param of params) {
    const equals = param.indexOf('=');
    if (equals < 1) throw new CliError(`--param ${param}: give it as name=value`);
    const name = param.slice(0, equals);
    const value = param.slice(equals + 1);
    if (declaration !== undefined && !declared.some((parameter) => parameter.name === name)) {
      const names = declared.map((parameter) => parameter.name);
      const known = names.length === 0 ? 'it takes none' : `it takes ${names.join(', ')}`;
      throw new CliError(`--param ${name}: not a parameter of the ${format} format (${known})`);
    }
    const given = query[name];
    query[name] = given === undefined ? value : [given, value].flat();
  }
  return query;
}

/**
 * `import <format> <paths…>`: imports local files, folders or archives into the store, as
 * `POST /import/<format>` does (one job, one transaction, the same stored log), whether or not the
 * server runs. Progress goes to stderr; the import log, as JSON, to stdout. `formats` gives the
 * formats' declarations, loaded only when the help or the import needs them.
 */
export function importCommand(
  withImports: ImportServicesRunner,
  out: CliOutput,
  progress: ProgressOutput,
  formats: () => readonly FormatDeclaration[],
): Command {
  return new Command('import')
    .description('import local files, folders or archives, as POST /import/<format> does')
    .usage(
      '<format> <paths…> --scope <id> --user <id> [--commit] [--tolerant] [--allow-update] [--lang <code>] [--tag <tag>] [--param <name=value>…]',
    )
    .argument('<format>', 'the format of the files (listed below)')
    .argument('<paths...>', 'files, folders (every file below them) or archives')
    .requiredOption('--scope <id>', 'the scope item: repository, country, set, vocabulary')
    .option('--commit', 'apply the changes; otherwise a dry run that reports what would happen')
    .option('--tolerant', 'skip invalid items (listed under errors) instead of failing')
    .option('--allow-update', 'allow changing existing items')
    .option('--user <id>', 'the acting user, recorded in the import log (an existing user)')
    .option('--lang <code>', 'default description language, default eng')
    .option('--tag <tag>', "the tag of a single document (default: the file's name)")
    .option(
      '--param <name=value>',
      "a parameter of the format's own, as POST /import/<format> takes it; repeatable",
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .addHelpText('after', () => formatsHelp(formats()))
    .action(async (format: string, paths: string[], options: ImportOptions) => {
      const user = actingUser(options.user);
      const formatParams = formatQuery(format, options.param, formats());
      const files = await filesOf(paths);
      const roots = [...new Set(files.map((file) => path.dirname(file)))];
      out.notice(`Importing ${files.length === 1 ? files[0] : `${files.length} files`} (${format})…`);
      const answer = await withImports(roots, async ({ imports, formats, users, errorBody }) => {
        if (!(await users.exists(user))) {
          throw new CliError(`unknown user "${user}": make it first with ${CLI_COMMAND} user add ${user}`);
        }
        const request = await requestOf(files, formats.endpoint(format).input === 'raw');
        const query: Record<string, string | string[]> = { ...formatParams, scope: options.scope };
        if (options.commit) query.commit = 'true';
        if (options.tolerant) query.tolerant = 'true';
        if (options.allowUpdate) query['allow-update'] = 'true';
        if (options.lang !== undefined) query.lang = options.lang;
        const tag = options.tag ?? request.tag;
        if (tag !== undefined) query.tag = tag;
        let text = '';
        try {
          await imports.import(
            {
              endpoint: format,
              user,
              query,
              contentType: request.contentType,
              body: request.body,
            },
            {
              started: (job) => showProgress(job, progress),
              done: async (file) => {
                text = await readFile(file, 'utf8');
              },
            },
          );
        } catch (error) {
          throw new ImportFailed(errorBody(error));
        }
        return text;
      });
      const log: unknown = JSON.parse(answer);
      out.result([JSON.stringify(log, null, 2)], log);
    });
}

/** The `--user` given: every import log names the user it was made by. */
function actingUser(user: string | undefined): string {
  if (user === undefined || user.trim() === '') {
    throw new CliError(
      'import needs --user <id>: the user the import is recorded under in its log ' +
        `(an existing user; make one with ${CLI_COMMAND} user add <id>)`,
    );
  }
  return user;
}

/** What went wrong, with where in the input when the import says so. */
function whatOf(details: ErrorBody['details']): string {
  if (typeof details === 'string') return details;
  const where = [
    details.key,
    details.tag === undefined ? undefined : `<${details.tag}>`,
    details.line === undefined ? undefined : `line ${details.line}`,
    details.column === undefined ? undefined : `column ${details.column}`,
  ].filter((part) => part !== undefined);
  return where.length === 0 ? details.message : `${details.message} (${where.join(', ')})`;
}

/** An import that failed: its message says why; its body is the error body the HTTP interface answers. */
export class ImportFailed extends Error {
  constructor(readonly body: ErrorBody) {
    super(`the import failed (${body.status} ${body.error}): ${whatOf(body.details)}`);
  }
}
