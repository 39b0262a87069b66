#!/usr/bin/env node
import './config/node-version';
import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TokensService } from './auth/tokens.service';
import { UsersService } from './auth/users.service';
import { CliModule } from './cli/cli.module';
import { existsSync } from 'node:fs';
import { ImportFailed, importCommand, ImportServicesRunner } from './cli/import-command';
import { CliServices, ServicesRunner, buildCliProgram } from './cli/cli-program';
import { cliOutput } from './cli/cli-output';
import { loadConfig } from './config/app-config';
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
      users: context.get(UsersService),
      errorBody: errorBodyOf,
    });
  } finally {
    await context.close();
  }
};

/** The import formats' declarations, required only when the import command's help or run needs them. */
function importFormats() {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { IMPORT_FORMATS } =
    require('./import/formats/formats.module') as typeof import('./import/formats/formats.module');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return IMPORT_FORMATS;
}

async function main(argv: string[]): Promise<void> {
  const out = cliOutput(process.stdout, process.stderr);
  try {
    // As the server reads them (variables already set win), and checked before any store opens.
    if (existsSync('.env')) process.loadEnvFile('.env');
    loadConfig(process.env);
    await buildCliProgram(withServices, out, [
      importCommand(withImports, out, process.stderr, importFormats),
    ]).parseAsync(argv);
  } catch (error) {
    process.stderr.write(`error: ${(error as Error)?.message ?? String(error)}\n`);
    // For scripts: the error body the HTTP interface would answer, as JSON, on the last line.
    if (error instanceof ImportFailed) process.stderr.write(`${JSON.stringify(error.body)}\n`);
    process.exitCode = 1;
  }
}

void main(process.argv);
