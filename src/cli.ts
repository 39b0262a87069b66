import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TokensService } from './auth/tokens.service';
import { UsersService } from './auth/users.service';
import { CliModule } from './cli/cli.module';
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

async function main(argv: string[]): Promise<void> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  try {
    await buildCliProgram(withServices, print).parseAsync(argv);
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

void main(process.argv);
