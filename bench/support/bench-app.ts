import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app-config';
import { Role } from '../../src/auth/roles';
import { TokensService } from '../../src/auth/tokens.service';
import { UsersService } from '../../src/auth/users.service';
import { GraphStore } from '../../src/graph/graph-store';
import { benchStoreEnv, emptyBenchStore } from './bench-store';

/**
 * The real app on a fresh store (a temporary SQLite file, or the emptied Neo4j database of
 * `BENCH_GRAPH_URL`: see `bench-store.ts`), listening on a loopback port.
 */
export interface BenchApp {
  app: NestFastifyApplication;
  port: number;
  store: GraphStore;
  /** The environment that opens its store, for a service process to open it too. */
  graphEnv: Record<string, string>;
  /** A new token of `role`, issued to the user `bench`. */
  token(role: Role): Promise<string>;
  close(): Promise<void>;
}

export async function startBenchApp(name: string): Promise<BenchApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `${name}-bench-`));
  // The app reads its configuration from the environment when it is created.
  const graphEnv = benchStoreEnv(path.join(dataDir, 'archive.db'));
  await emptyBenchStore();
  Object.assign(process.env, graphEnv);
  process.env.LOG_LEVEL = 'silent';
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule,
    createHttpAdapter(loadConfig()),
    APP_OPTIONS,
  );
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  await app.get(UsersService).add('bench');
  return {
    app,
    port: (app.getHttpServer().address() as AddressInfo).port,
    store: app.get(GraphStore),
    graphEnv,
    token: async (role) =>
      (await app.get(TokensService).create({ role, user: 'bench', name: 'bench' })).token,
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TimedImport {
  seconds: number;
  created: unknown;
  updated: unknown;
  unchanged: unknown;
}

/** Posts one import as the user `bench` and times it end to end; anything but 201 throws. */
export async function timedImport(
  bench: BenchApp,
  token: string,
  request: { endpoint: string; query: Record<string, string>; contentType: string; body: Buffer },
): Promise<TimedImport> {
  const started = performance.now();
  const query = new URLSearchParams(request.query);
  const response = await fetch(`http://127.0.0.1:${bench.port}/import/${request.endpoint}?${query}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'X-User': 'bench', 'Content-Type': request.contentType },
    body: request.body,
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201)
    throw new Error(`import answered ${response.status}: ${JSON.stringify(answer)}`);
  const { created, updated, unchanged } = answer;
  return { seconds: (performance.now() - started) / 1000, created, updated, unchanged };
}

/** A dry run, a commit and an unchanged re-import of the same body, each timed end to end. */
export async function timedImportPhases(
  bench: BenchApp,
  request: { endpoint: string; query: Record<string, string>; contentType: string; body: Buffer },
): Promise<{ dryRun: TimedImport; commit: TimedImport; reimport: TimedImport }> {
  const token = await bench.token('import');
  const post = (commit: boolean) =>
    timedImport(bench, token, { ...request, query: { ...request.query, commit: String(commit) } });
  const dryRun = await post(false);
  const commit = await post(true);
  const reimport = await post(true);
  return { dryRun, commit, reimport };
}

/** An import benchmark's document and how to import it. */
export interface ImportBenchmark {
  /** The endpoint, which also names the benchmark's temporary store. */
  endpoint: string;
  query: Record<string, string>;
  contentType: string;
  body: Buffer;
  /** Creates what the import needs first (its scope). */
  setUp(store: GraphStore): Promise<void>;
  /** Times parsing the body alone, the baseline the import phases compare with. */
  parseSeconds(body: Buffer): Promise<number>;
}

/**
 * The import phases of one document on a fresh app (dry run, commit, unchanged re-import), beside
 * the time to parse it alone, with the process's peak RSS.
 */
export async function importPhasesBenchmark(benchmark: ImportBenchmark): Promise<object> {
  const { endpoint, query, contentType, body } = benchmark;
  const bench = await startBenchApp(endpoint);
  try {
    await benchmark.setUp(bench.store);
    const parseOnlySeconds = await benchmark.parseSeconds(body);
    const phases = await timedImportPhases(bench, { endpoint, query, contentType, body });
    return {
      bytes: body.length,
      parseOnlySeconds,
      ...phases,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await bench.close();
  }
}

/** Runs a benchmark's `main` when its file is run directly: its JSON on stdout, errors exit 1. */
export function runWhenMain(module: NodeModule, main: () => Promise<object>): void {
  if (require.main !== module) return;
  main().then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
