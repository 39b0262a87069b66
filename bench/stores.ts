/**
 * Both stores side by side (issue 38): the same generated EAD imports (`ead-import.ts`: a commit
 * and an unchanged re-import), at each size of `BENCH_STORES_UNITS` (default 1000,20000,100000),
 * into the embedded SQLite store and into a Neo4j server started by the project's script
 * (`scripts/neo4j-server.ts`, the launcher's defaults: `NEO4J_HEAP`, a quarter of the machine's memory) on its own data folder
 * and port (`BENCH_NEO4J_DATA_DIR`, default data/neo4j-bench; `BENCH_NEO4J_BOLT_PORT`, 7690),
 * stopped afterwards if it started it; on Neo4j with the floor of bare `UNWIND … CREATE` batches
 * of the same rows (`support/neo4j-floor.ts`) beside each commit. Then the portal search load
 * (`portal-search.ts`) on each store, unless `BENCH_STORES_SEARCH=0`. A size that fails is
 * reported with its error, and the others still run. Prints one JSON object.
 *
 * `node -r ts-node/register/transpile-only bench/stores.ts` (or `npm run bench -- stores`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { settingsFromEnv, startServer, stopServer } from '../scripts/neo4j-server';
import { ROOT } from './support/bench-paths';

const SIZES = (process.env.BENCH_STORES_UNITS ?? '1000,20000,100000').split(',').map(Number);
const SEARCH = process.env.BENCH_STORES_SEARCH !== '0';
/** The units the portal search load runs over: `BENCH_STORES_SEARCH_UNITS`, or the largest size. */
const SEARCH_UNITS = Number(process.env.BENCH_STORES_SEARCH_UNITS ?? Math.max(...SIZES));

type Store = 'sqlite' | 'neo4j';

/** Runs `bench/<script>` under this process's TypeScript runner with `env`; its last JSON line. */
function child(script: string, env: Record<string, string>): Record<string, unknown> {
  const started = Date.now();
  const run = spawnSync(process.execPath, [...process.execArgv, path.join(__dirname, script)], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    // The error a phase printed (a Neo4j refusal names its code), not its stack.
    const said = run.stderr.split('\n').filter((line) => /Error|error:|code:/.test(line));
    return {
      error: `exited with ${run.status ?? run.signal}`,
      said: said.slice(0, 6),
      ms: Date.now() - started,
    };
  }
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
}

/** The commit, the re-import and (on Neo4j) the floor of one size, as `ead-import.ts` measures them. */
function imports(store: Store, units: number, graphEnv: Record<string, string>): Record<string, unknown> {
  const phases = store === 'neo4j' ? 'commit,reimport,floor' : 'commit,reimport';
  const result = child('ead-import.ts', { ...graphEnv, BENCH_UNITS: String(units), BENCH_PHASES: phases });
  if ('error' in result) return result;
  const ms = (phase: string) => (result[phase] as { ms?: number } | undefined)?.ms;
  const floorMs = (result.neo4jFloor as { result?: { ms?: number } } | undefined)?.result?.ms;
  const commit = ms('commit');
  const reimport = ms('reimport');
  return {
    document: result.document,
    commitMs: commit,
    reimportMs: reimport,
    ...(floorMs !== undefined && { floorMs }),
    reimportToCommit: commit && reimport ? Math.round((reimport / commit) * 100) / 100 : null,
    ...(commit && floorMs && { commitToFloor: Math.round((commit / floorMs) * 100) / 100 }),
    peakRssMb: result.peakRssMb,
  };
}

/** The portal search load on the store: `portal-search.ts` as it is, at the largest size asked. */
function portalSearch(graphEnv: Record<string, string>): Record<string, unknown> {
  return child('portal-search.ts', { ...graphEnv, BENCH_UNITS: String(SEARCH_UNITS) });
}

/** Each part's figures also go to stderr as it ends, so that a run cut short keeps what it measured. */
function reported<T>(part: string, figures: T): T {
  console.error(`${part}: ${JSON.stringify(figures)}`);
  return figures;
}

function runOn(store: Store, graphEnv: Record<string, string>): Record<string, unknown> {
  const sizes: Record<string, unknown> = {};
  for (const units of SIZES) sizes[units] = reported(`${store} ${units}`, imports(store, units, graphEnv));
  return {
    imports: sizes,
    ...(SEARCH && { portalSearch: reported(`${store} search`, portalSearch(graphEnv)) }),
  };
}

/**
 * Stops the benchmark's own server; one still busy (a transaction the server goes on rolling back)
 * is killed, and the figures measured before are kept all the same.
 */
async function stopBenchServer(dataDir: string): Promise<string | undefined> {
  try {
    await stopServer(dataDir);
    return undefined;
  } catch (error) {
    const pidFile = path.join(dataDir, 'neo4j.pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
    if (pid > 0) process.kill(pid, 'SIGKILL');
    return `${(error as Error).message}; killed`;
  }
}

export async function main(): Promise<object> {
  const started = new Date().toISOString();
  const load = loadavg();
  const results: Record<string, unknown> = { sqlite: runOn('sqlite', {}) };
  const settings = settingsFromEnv({
    NEO4J_DATA_DIR: process.env.BENCH_NEO4J_DATA_DIR || 'data/neo4j-bench',
    NEO4J_BOLT_PORT: process.env.BENCH_NEO4J_BOLT_PORT || '7690',
    NEO4J_PASSWORD: process.env.NEO4J_PASSWORD,
    NEO4J_HEAP: process.env.NEO4J_HEAP,
    NEO4J_PAGE_CACHE: process.env.NEO4J_PAGE_CACHE,
  });
  const { url, started: ours } = await startServer(settings);
  try {
    results.neo4j = runOn('neo4j', { BENCH_GRAPH_URL: url, NEO4J_PASSWORD: settings.password });
  } finally {
    if (ours) results.neo4jStop = await stopBenchServer(settings.dataDir);
  }
  return {
    started,
    loadAverageAtStart: load,
    loadAverageAtEnd: loadavg(),
    neo4jHeap: settings.heap,
    ...results,
  };
}

if (require.main === module) {
  main().then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
