import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import pino from 'pino';
import { APP_OPTIONS, configureApp, createHttpAdapter } from './app.setup';
import { superviseHttpWorkers } from './cluster/http-workers';
import { AppConfig, LISTEN_HOST, loadConfig } from './config/app-config';
import { shutDownOnSignals } from './shutdown/graceful-shutdown';

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
    pino({ level: config.logLevel }).fatal(
      { err: error, port: config.port },
      'Cannot listen on the port: stopping the service',
    );
    process.exit(1);
  }
}

// As the app's ConfigModule reads it: variables already set win.
if (existsSync('.env')) process.loadEnvFile('.env');
const config = loadConfig(process.env);
if (cluster.isPrimary && config.httpWorkers > 1) superviseHttpWorkers(config);
else void serve(config);
