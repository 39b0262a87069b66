import './config/node-version';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import pino from 'pino';
import { APP_OPTIONS, configureApp, createHttpAdapter } from './app.setup';
import { TokensService } from './auth/tokens.service';
import { superviseHttpWorkers } from './cluster/http-workers';
import { AppConfig, LISTEN_HOST, loadConfig } from './config/app-config';
import { SettingsError } from './config/settings';
import { logDestination } from './observability/app-logger';
import { shutDownOnSignals } from './shutdown/graceful-shutdown';
import { startGuide } from './start/start-guide';

async function serve(config: AppConfig): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule,
    createHttpAdapter(config),
    APP_OPTIONS,
  );
  configureApp(app);
  shutDownOnSignals(app, config.shutdownGraceMs);
  try {
    // In a cluster worker, Node's cluster listens in the primary and hands connections out in turn.
    await app.listen(config.port, LISTEN_HOST);
  } catch (error) {
    pino({ level: config.logLevel }, logDestination()).fatal(
      { err: error, port: config.port },
      'Cannot listen on the port: stopping the service',
    );
    process.exit(1);
  }
  // Once, from the first of several HTTP workers.
  if (cluster.isPrimary || cluster.worker?.id === 1) await guide(app, config);
}

/** The line that tells a newcomer where to go, and how to make the first token. */
async function guide(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const address = app.getHttpServer().address() as AddressInfo | null;
  // A store that cannot list tokens now says so elsewhere (health); the line is still worth giving.
  const active = await app
    .get(TokensService)
    .list()
    .then(
      (tokens) => tokens.some((token) => !token.revoked),
      () => true,
    );
  new Logger('Start').log(startGuide(`http://localhost:${address?.port ?? config.port}`, active));
}

/**
 * The settings, checked: when any is not allowed, each is named on stderr (no stack trace, which
 * would say nothing more) and the service exits with 1 before it opens anything.
 */
function checkedConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

// As the app's ConfigModule reads it: variables already set win.
if (existsSync('.env')) process.loadEnvFile('.env');
const config = checkedConfig();
if (cluster.isPrimary && config.httpWorkers > 1) superviseHttpWorkers(config);
else void serve(config);
