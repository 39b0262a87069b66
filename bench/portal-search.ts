/**
 * Portal search benchmark (docs/performance.md: p99 under 50 ms at 50 concurrent clients on 100,000
 * units). Loads generated units through the store port into a temporary SQLite store (or the Neo4j
 * database `BENCH_GRAPH_URL` names, emptied first: `support/bench-store.ts`), starts the
 * service on it (`src/main.ts`, with `HTTP_WORKERS` processes serving HTTP, by
 * default one per core) on a loopback port, and replays a fixed number of requests per scenario
 * from 50 keep-alive clients in a child process (each first opens its connection with an untimed
 * request, `OPENING_PATH`), once a warm-up of other requests is done and the service is idle
 * (what it reads ahead after starting is done). Prints one JSON object: latency
 * percentiles and throughput per scenario, plus the server's CPU time per request, which unlike
 * latency does not depend on what else the machine is running, and what reading an item for the
 * first time costs the store, in process (`firstItemReads`). A reference beside them, a bare
 * Node server under the same load, shows how much of those figures is the harness's and the
 * machine's.
 *
 * The service runs under the TypeScript hook this process runs under (`npm run bench`: SWC,
 * `scripts/swc-register.js`).
 *
 * `node -r ts-node/register/transpile-only bench/portal-search.ts`; `BENCH_UNITS` and
 * `BENCH_REQUESTS` scale it down; `BENCH_CLIENTS` sets the clients (the target is for 50, and is
 * judged only then); `BENCH_HTTP_WORKERS` sets `HTTP_WORKERS`; `BENCH_NODE_OPTIONS`
 * runs the service with Node options, such as `--cpu-prof --cpu-prof-dir=<folder>`.
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import path from 'node:path';
import { GraphStore, ItemWrite } from '../src/graph/graph-store';
import { joinPath } from '../src/items/identifiers';
import { JSONAPI_MEDIA_TYPE } from '../src/portal/jsonapi';
import { repositoryWrite, unitWrite } from '../test/support/portal-fixtures';
import { startBareServer } from './support/bare-server';
import { runWhenMain, startBenchApp } from './support/bench-app';
import { ReplayJob, ReplayResult, replayInChild } from './support/http-replay';
import { ROOT } from './support/bench-paths';
import { ServiceProcess, spawnService, untilHealthy } from '../test/support/service-process';
import { random } from './support/seeded-random';
import { CITIES, pick, prose, queryText } from './support/search-words';

const UNIT_COUNT = Number(process.env.BENCH_UNITS ?? 100_000);
const REQUESTS_PER_SCENARIO = Number(process.env.BENCH_REQUESTS ?? 5_000);
/** The clients of the portal's target (docs/performance.md). */
const TARGET_CLIENTS = 50;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? TARGET_CLIENTS);
/** Processes serving HTTP (`HTTP_WORKERS`): by default one per core. */
const HTTP_WORKERS = Number(process.env.BENCH_HTTP_WORKERS ?? availableParallelism());
const WARM_UP_REQUESTS_PER_SCENARIO = 100;
const WRITE_BATCH = 2_000;
/**
 * What each client asks first, untimed, to open its connection (`ReplayJob.openingPath`): the
 * API's index, which reads nothing. A portal's server keeps its connections to the API open, so
 * search latency is measured on open connections; opening 50 at once is reported as `openingMs`.
 */
const OPENING_PATH = '/api/v1';
const TARGET_P99_MS = 50;
const PAGE_SIZE = 20;
/** Node options for the service process (`BENCH_NODE_OPTIONS`), such as `--cpu-prof`. */
const SERVICE_NODE_OPTIONS = (process.env.BENCH_NODE_OPTIONS ?? '')
  .split(' ')
  .filter((option) => option !== '');
/** Slowest requests listed per scenario. */
const SLOWEST_SHOWN = 3;

const COUNTRIES = ['nl', 'de', 'pl', 'fr'];
const REPOSITORIES_PER_COUNTRY = 3;
const FONDS_PER_REPOSITORY = 10;
const SERIES_PER_FONDS = 20;
const FILES_PER_SERIES = 42;

interface GeneratedArchive {
  /** Item writes, parents before children. */
  batches: ItemWrite[][];
  repositoryIds: string[];
  /** Fonds and series: units with children. */
  parentUnitIds: string[];
}

/** Fonds, their series and the series' files, repository by repository, parents first. */
function* unitPaths(): Generator<string[]> {
  for (const country of COUNTRIES) {
    for (let r = 1; r <= REPOSITORIES_PER_COUNTRY; r++) {
      for (let f = 1; f <= FONDS_PER_REPOSITORY; f++) {
        const fonds = [country, `archive${r}`, `F${f}`];
        yield fonds;
        for (let s = 1; s <= SERIES_PER_FONDS; s++) {
          const series = [...fonds, `S${s}`];
          yield series;
          for (let file = 1; file <= FILES_PER_SERIES; file++) yield [...series, `file ${file}`];
        }
      }
    }
  }
}

function generateArchive(): GeneratedArchive {
  const rand = random(1942);
  const writes: ItemWrite[] = [];
  const repositoryIds: string[] = [];
  const parentUnitIds: string[] = [];
  for (const country of COUNTRIES) {
    for (let r = 1; r <= REPOSITORIES_PER_COUNTRY; r++) {
      const city = pick(rand, CITIES);
      const write = repositoryWrite(country, `archive${r}`, {
        name: `Archive of ${city} ${r}`,
        address: { street: `${r} Main Street`, municipality: city, countryCode: country.toUpperCase() },
      });
      writes.push(write);
      repositoryIds.push(write.bundle.id);
    }
  }
  let units = 0;
  for (const unitPath of unitPaths()) {
    if (units++ === UNIT_COUNT) break;
    const isFile = unitPath.length === 5;
    if (!isFile) parentUnitIds.push(joinPath(unitPath));
    writes.push(
      unitWrite(unitPath, {
        otherIdentifiers: [`REF-${Math.floor(rand() * 1e6)}`],
        descriptions: [
          {
            languageCode: 'eng',
            name: `${prose(rand, 3)} ${unitPath[unitPath.length - 1]}`,
            extentAndMedium: `${1 + Math.floor(rand() * 40)} folders`,
            scopeAndContent: prose(rand, isFile ? 25 : 60),
          },
        ],
      }),
    );
  }
  const batches: ItemWrite[][] = [];
  for (let i = 0; i < writes.length; i += WRITE_BATCH) batches.push(writes.slice(i, i + WRITE_BATCH));
  return { batches, repositoryIds, parentUnitIds };
}

/** Request paths per scenario, `count` of each. */
function scenarios(archive: GeneratedArchive, count: number, seed: number): Record<string, string[]> {
  const rand = random(seed);
  const many = (make: () => string) => Array.from({ length: count }, make);
  const scopes = [...archive.repositoryIds, ...archive.parentUnitIds];
  const pages = Math.ceil(UNIT_COUNT / PAGE_SIZE);
  // Readers mostly look at the first page of a text search, now and then at the next one.
  const textPage = () => (rand() < 0.8 ? '' : `&page=${2 + Math.floor(rand() * 3)}`);
  return {
    globalText: many(() => `/api/v1/search?q=${queryText(rand)}${textPage()}`),
    typeFilter: many(() => `/api/v1/search?q=${queryText(rand)}&type=DocumentaryUnit${textPage()}`),
    scopedChildren: many(() => `/api/v1/${pick(rand, scopes)}/search`),
    scopedText: many(() => `/api/v1/${pick(rand, archive.repositoryIds)}/search?q=${queryText(rand)}`),
    blankPaging: many(() => `/api/v1/search?page=${1 + Math.floor(rand() * pages)}`),
    // Not a worst case: what portal traffic looks like (ZIPF_QUERIES). Its own random numbers, so
    // that the scenarios above ask what they always asked.
    zipfText: zipfPaths(count, seed),
  };
}

/** Distinct queries that the realistic scenario draws from, and how often each is asked (Zipf, s = 1). */
const ZIPF_QUERIES = 2_000;

/**
 * A realistic mix: a fixed set of queries as `queryText` makes them, asked with Zipf-distributed
 * frequency (the most popular query every ~8th time, the 2,000th about once in 16,000), a quarter of
 * them filtered to units, pages as in the other text scenarios.
 */
function zipfPaths(count: number, seed: number): string[] {
  const rand = random(seed + 1);
  const queries = Array.from({ length: ZIPF_QUERIES }, (_, rank) => {
    const queryRand = random(rank + 1);
    return `q=${queryText(queryRand)}${queryRand() < 0.25 ? '&type=DocumentaryUnit' : ''}`;
  });
  const weights = queries.map((_, rank) => 1 / (rank + 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  const cumulative = weights.map((weight) => (running += weight / sum));
  return Array.from({ length: count }, () => {
    const draw = rand();
    const rank = cumulative.findIndex((value) => draw <= value);
    const page = rand() < 0.8 ? '' : `&page=${2 + Math.floor(rand() * 3)}`;
    return `/api/v1/search?${queries[rank === -1 ? queries.length - 1 : rank]}${page}`;
  });
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

const round = (value: number) => Math.round(value * 100) / 100;

function summary(paths: string[], result: ReplayResult, serverCpuMicros: number) {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const totals = [...result.totals].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    distinctRequests: new Set(paths).size,
    errors: result.errors,
    openingMs: result.openingMs,
    p50Ms: round(percentile(sorted, 0.5)),
    p95Ms: round(percentile(sorted, 0.95)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted[sorted.length - 1]),
    throughputPerSecond: Math.round((sorted.length / result.wallMs) * 1000),
    serverCpuMsPerRequest: round(serverCpuMicros / 1000 / sorted.length),
    medianMatches: totals.length > 0 ? percentile(totals, 0.5) : null,
    // Where a tail comes from: a slow request and its place in the replay (early: a cold cache).
    slowest: result.latenciesMs
      .map((ms, index) => ({ ms: round(ms), index, path: paths[index] }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN),
  };
}

/** Progress goes to stderr: stdout carries only the result. */
function progress(message: string): void {
  process.stderr.write(`portal-search: ${message}\n`);
}

/** Replays `job` and sums it up with the CPU time that the server (`cpuMicros`) spent meanwhile. */
async function measured(job: ReplayJob, cpuMicros: () => number) {
  const cpuBefore = cpuMicros();
  const result = await replayInChild({ ...job, openingPath: OPENING_PATH });
  return summary(job.paths, result, cpuMicros() - cpuBefore);
}

/** The service uses less than this share of one core over a window: its background work is done. */
const IDLE_SHARE = 0.05;
const IDLE_WINDOW_MS = 250;
const IDLE_WAIT_MAX_MS = 60_000;

/**
 * Waits until the service is idle (or a minute has passed): what it does in the background after
 * starting (reading ahead for searches) would otherwise land in the first scenario's latencies.
 */
async function untilIdle(cpuMicros: () => number): Promise<{ waitedMs: number }> {
  const started = Date.now();
  for (;;) {
    const before = cpuMicros();
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
    const busy = (cpuMicros() - before) / 1000 / IDLE_WINDOW_MS;
    const waitedMs = Date.now() - started;
    if (busy < IDLE_SHARE || waitedMs >= IDLE_WAIT_MAX_MS) return { waitedMs };
  }
}

/** Items asked for per read transaction when first reads are timed: a page of hits. */
const ITEMS_PER_READ = PAGE_SIZE;

/**
 * What reading an item for the first time costs the store: every unit read once, a page's worth per
 * read transaction, in the order they were written, right after the load (the reads are of a new
 * store version, so none is cached yet). Timed inside each transaction, around the reads alone,
 * which run without yielding: the store reads ahead for searches meanwhile, on the same thread.
 * Each item's parse is included; resources and HTTP are not.
 */
async function firstItemReads(store: GraphStore, archive: GeneratedArchive) {
  const ids = archive.batches.flat().map((write) => write.bundle.id);
  let read = 0;
  let elapsedMs = 0;
  for (let start = 0; start < ids.length; start += ITEMS_PER_READ) {
    const page = ids.slice(start, start + ITEMS_PER_READ);
    await store.read(async (tx) => {
      const started = performance.now();
      read += (await tx.getItems(page)).size;
      elapsedMs += performance.now() - started;
    });
  }
  if (read !== ids.length) throw new Error(`read ${read} of ${ids.length} items`);
  return { items: read, itemsPerRead: ITEMS_PER_READ, microsPerItem: round((elapsedMs * 1000) / read) };
}

/** This process's CPU time, in microseconds. */
function ownCpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * The scenarios' harness against a bare server answering every request with one fixed document:
 * the app's answer to the first of `paths`, so that as many bytes travel.
 */
async function bareServerReference(job: ReplayJob) {
  const answer = await fetch(`http://127.0.0.1:${job.port}${job.paths[0]}`, { headers: job.headers });
  const body = Buffer.from(await answer.arrayBuffer());
  const server = await startBareServer(body, JSONAPI_MEDIA_TYPE);
  try {
    return {
      note:
        `the same ${CLIENTS} clients and requests as globalText against a bare node:http server that ` +
        `answers each with one fixed ${body.length}-byte document: what this machine and harness ` +
        'show for a server doing next to nothing',
      ...(await measured({ ...job, port: server.port }, ownCpuMicros)),
    };
  } finally {
    await server.close();
  }
}

export async function main(): Promise<object> {
  const bench = await startBenchApp('portal');
  let service: ServiceProcess | undefined;
  try {
    const { store } = bench;
    const token = await bench.token('portal');
    const headers = { Authorization: `Bearer ${token}`, Accept: JSONAPI_MEDIA_TYPE };

    const archive = generateArchive();
    const loadStarted = Date.now();
    for (const batch of archive.batches) await store.write((tx) => tx.putItems(batch));
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    progress(`loaded ${UNIT_COUNT} units in ${loadSeconds} s`);
    const itemReads = await firstItemReads(store, archive);
    progress(`first item reads: ${JSON.stringify(itemReads)}`);

    // The service as `npm start` runs it, on the store just loaded.
    service = await spawnService(
      [...process.execArgv, ...SERVICE_NODE_OPTIONS, path.join(ROOT, 'src', 'main.ts')],
      {
        ...bench.graphEnv,
        HTTP_WORKERS: String(HTTP_WORKERS),
        LOG_LEVEL: 'silent',
        // The scenarios ask far more than a client may a minute: the benchmark measures answers, not limits.
        PORTAL_RATE_LIMIT: '0',
      },
    );
    // Started from TypeScript, on a machine that may be busy: its start may take a while.
    await untilHealthy(service, 180_000);
    // One worker answering is enough to be healthy: the others are up once the service is idle.
    await untilIdle(service.cpuMicros);
    const { port } = service;

    // Other requests than the measured ones, so that nothing measured is answered from a warm cache.
    const warmUp = Object.values(scenarios(archive, WARM_UP_REQUESTS_PER_SCENARIO, 1933)).flat();
    await replayInChild({ port, headers, paths: warmUp, clients: CLIENTS });
    const idle = await untilIdle(service.cpuMicros);
    progress(`service idle after ${idle.waitedMs} ms`);
    const loadAverageBefore = loadavg()[0];
    const measuredScenarios = scenarios(archive, REQUESTS_PER_SCENARIO, 1945);
    const results: Record<string, ReturnType<typeof summary>> = {};
    for (const [name, paths] of Object.entries(measuredScenarios)) {
      results[name] = await measured({ port, headers, paths, clients: CLIENTS }, service.cpuMicros);
      progress(`${name}: ${JSON.stringify(results[name])}`);
    }
    // Not a scenario: the realistic mix again, with everything it reads kept from its first run.
    const warmZipf = {
      note:
        'the zipfText requests replayed again, everything they read kept from their first run: the ' +
        'service once its caches hold a workload, without the first reads the scenarios pay',
      ...(await measured(
        { port, headers, paths: measuredScenarios.zipfText, clients: CLIENTS },
        service.cpuMicros,
      )),
    };
    progress(`zipfText again: ${JSON.stringify(warmZipf)}`);
    const reference = await bareServerReference({
      port,
      headers,
      paths: measuredScenarios.globalText,
      clients: CLIENTS,
    });
    progress(`reference: ${JSON.stringify(reference)}`);
    return {
      units: UNIT_COUNT,
      repositories: archive.repositoryIds.length,
      loadSeconds,
      clients: CLIENTS,
      httpWorkers: HTTP_WORKERS,
      machine: { cpus: cpus().length, loadAverage1m: round(loadAverageBefore) },
      targetP99Ms: TARGET_P99_MS,
      notes: {
        zipfText:
          'realistic repeated-query mix (Zipf over 2,000 queries), not a worst case; the scenarios above are worst cases, about half their requests or more distinct',
      },
      targetMet:
        CLIENTS === TARGET_CLIENTS
          ? Object.values(results).every((result) => result.p99Ms < TARGET_P99_MS && result.errors === 0)
          : null,
      scenarios: results,
      firstItemReads: itemReads,
      reference: { zipfTextAgain: warmZipf, bareNodeServer: reference },
    };
  } finally {
    await service?.stop();
    await bench.close();
  }
}

runWhenMain(module, main);
