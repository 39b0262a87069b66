import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TokensService } from './auth/tokens.service';
import { UsersService } from './auth/users.service';
import { CliModule } from './cli/cli.module';
import { ImportFailed, importCommand, ImportServicesRunner } from './cli/import-command';
import { CliServices, ServicesRunner, buildCliProgram } from './cli/cli-program';
import { GraphStore } from './graph/graph-store';

function servicesOf(context: INestApplicationContext): CliServices {
  return {
    store: context.get(GraphStore),
    tokens: context.get(TokensService),
    users: context.get(UsersService),
  };
}

/**
 * Each command opens the store through the same Nest modules as the server (so `.env` and
 * `GRAPH_URL` mean the same) and closes it when done; the store serialises writers, so this is
 * safe while the server runs.
 */
const withServices: ServicesRunner = async (work) => {
  const context = await NestFactory.createApplicationContext(CliModule, {
    logger: false,
    abortOnError: false,
  });
  try {
    return await work(servicesOf(context));
  } finally {
    await context.close();
  }
};

/**
 * The import command's services, with the folders of the files it names as the import roots (the
 * command line reads the files its user names; the server reads only inside its configured roots).
 */
const withImports: ImportServicesRunner = async (roots, work) => {
  process.env.IMPORT_ROOTS = roots.join(':');
  // In this process, unless set otherwise: it answers no requests that a worker would keep free.
  process.env.IMPORT_RUNNER ??= 'inline';
  // Required here: the other commands start without the import run and its formats. (A dynamic
  // import() would go through the ES module loader, which does not load the TypeScript sources.)
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { CliImportModule } = require('./cli/cli-import.module') as typeof import('./cli/cli-import.module');
  const { FormatRegistry } = require('./import/format-registry') as typeof import('./import/format-registry');
  const { ImportService } = require('./import/import.service') as typeof import('./import/import.service');
  const { errorBodyOf } = require('./import/import-errors') as typeof import('./import/import-errors');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const context = await NestFactory.createApplicationContext(CliImportModule, {
    logger: false,
    abortOnError: false,
  });
  try {
    return await work({
      imports: context.get(ImportService),
      formats: context.get(FormatRegistry),
      errorBody: errorBodyOf,
    });
  } finally {
    await context.close();
  }
};

async function main(argv: string[]): Promise<void> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const progress = { write: (text: string) => process.stderr.write(text), isTTY: process.stderr.isTTY };
  try {
    await buildCliProgram(withServices, print, [importCommand(withImports, print, progress)]).parseAsync(
      argv,
    );
  } catch (error) {
    // A failed import's error is its error body, as JSON.
    const message =
      error instanceof ImportFailed ? error.message : `error: ${String((error as Error)?.message ?? error)}`;
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  }
}

void main(process.argv);
