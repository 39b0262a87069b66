import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { INestApplication, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { DestinationStream } from 'pino';
import { AppModule } from '../../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter, initWithoutListening } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app-config';
import { Role } from '../../src/auth/roles';
import { TokensService } from '../../src/auth/tokens.service';
import { UsersService } from '../../src/auth/users.service';
import { GraphStore } from '../../src/graph/graph-store';
import { LOG_DESTINATION } from '../../src/observability/app-logger';
import { emptyNeo4j, neo4jTestDatabase, onNeo4j } from './test-store';

export interface TestAppOptions {
  /** Extra environment for this app's configuration (applied over `GRAPH_URL` and `LOG_LEVEL`). */
  env?: Record<string, string>;
  /** Test-only controllers mounted beside `AppModule`. */
  controllers?: Type[];
  /** Test-only modules loaded beside `AppModule` (e.g. test import formats). */
  imports?: Type[];
  /**
   * Where the app's pino logs go (pass `LOG_LEVEL` in `env` too). nestjs-pino builds its logger
   * once per process, so only the first app of a test file decides level and destination.
   */
  logDestination?: DestinationStream;
}

export interface TestApp {
  app: INestApplication;
  server: ReturnType<INestApplication['getHttpServer']>;
  store: GraphStore;
  /** A fresh folder holding this app's SQLite file; removed by `close`. */
  dataDir: string;
  /** The environment that points another process (the CLI, a service) at this app's store. */
  graphEnv: Record<string, string>;
  /** A new, valid token of `role` (issued to `user` when given). */
  token(role: Role, user?: string): Promise<string>;
  /** Creates a `UserProfile` (random id unless given) and returns its id. */
  user(id?: string): Promise<string>;
  close(): Promise<void>;
}

/** Sets `env` for the duration of `work`, then puts every variable back as it was. */
async function withEnv<T>(env: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** On SQLite a new file in `dataDir`; on Neo4j the test database, emptied. */
async function freshStore(dataDir: string): Promise<Record<string, string>> {
  const neo4j = onNeo4j ? neo4jTestDatabase() : undefined;
  if (!neo4j) return { GRAPH_URL: `sqlite:${path.join(dataDir, 'archive.db')}` };
  await emptyNeo4j(neo4j);
  return { GRAPH_URL: neo4j.url, NEO4J_USER: neo4j.user, NEO4J_PASSWORD: neo4j.password };
}

/**
 * The real application, as `main.ts` builds it, on a store of its own (a temporary SQLite file,
 * or the emptied Neo4j test database: see `test-store.ts`), initialised but not listening
 * (supertest drives `server`).
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'archive-test-'));
  try {
    const graphEnv = await freshStore(dataDir);
    const env = {
      ...graphEnv,
      LOG_LEVEL: 'silent',
      ...options.env,
    };
    const app = await withEnv(env, async () => {
      let builder = Test.createTestingModule({
        imports: [AppModule, ...(options.imports ?? [])],
        controllers: options.controllers ?? [],
      });
      if (options.logDestination !== undefined) {
        builder = builder.overrideProvider(LOG_DESTINATION).useValue(options.logDestination);
      }
      const moduleRef = await builder.compile();
      const nestApp = moduleRef.createNestApplication<NestFastifyApplication>(
        createHttpAdapter(loadConfig()),
        APP_OPTIONS,
      );
      configureApp(nestApp);
      await initWithoutListening(nestApp);
      return nestApp;
    });
    const tokens = app.get(TokensService);
    const users = app.get(UsersService);
    return {
      app,
      server: app.getHttpServer(),
      store: app.get(GraphStore),
      dataDir,
      graphEnv,
      token: async (role, user) => (await tokens.create({ role, user, name: 'test' })).token,
      user: async (id = `user_${randomBytes(4).toString('hex')}`) => {
        await users.add(id);
        return id;
      },
      close: async () => {
        await app.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
