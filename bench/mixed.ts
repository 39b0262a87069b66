/**
 * Reads while an import commits (docs/performance.md: portal reads p99 < 20 ms and none over 100 ms
 * during a 100,000-unit EAD commit; the first searches after a commit as fast as later ones, p99
 * within 1.5×). Starts the service (`src/main.ts`, default settings) on a fresh store, and commits a generated EAD finding aid twice, each into a repository of its own:
 * once with nothing else running, once while five readers each ask about 40 requests a second
 * (a unit by id, then a search page, in turn), who have read for 15 s before that commit starts
 * (reported apart: their first reads of the version the first commit made). Then 50 clients send 2,000 searches right after that
 * commit, and 2,000 fresh searches of the same kind once the service is idle again. Prints one
 * JSON object: the commit times, the readers' latencies during the commit, and both searches'.
 *
 * `npm run bench -- mixed`; `BENCH_UNITS` scales it down. The machine is shared: the figures vary
 * with what else runs on it (the load average is printed beside them).
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { JSONAPI_MEDIA_TYPE } from '../src/portal/jsonapi';
import { spawnService, untilHealthy } from '../test/support/service-process';
import { PLACES, WORDS, writeEad } from './ead-generator';
import { runWhenMain, startBenchApp } from './support/bench-app';
import { replayInChild } from './support/http-replay';
import { ROOT } from './support/bench-paths';
import { random } from './support/seeded-random';
import { addRepository } from './support/bench-store';

const UNIT_COUNT = Number(process.env.BENCH_UNITS ?? 100_000);
const READERS = 5;
const READER_INTERVAL_MS = 25;
const SEARCHES = 2_000;
const SEARCH_CLIENTS = 50;
const READERS_ALONE_MS = 15_000;
const TARGETS = { readerP99Ms: 20, readerMaxMs: 100, commitGrowth: 1.15, searchP99Ratio: 1.5 };

function progress(message: string): void {
  process.stderr.write(`mixed: ${message}\n`);
}

/** Searches a reading room sends: a word or two of the finding aid, now and then a second page. */
function searchPaths(count: number, seed: number): string[] {
  const rand = random(seed);
  const words = [...WORDS, ...PLACES.map((place) => place.toLowerCase())];
  const word = () => words[Math.floor(rand() * words.length)];
  return Array.from({ length: count }, () => {
    const q = rand() < 0.6 ? word() : `${word()} ${word()}`;
    const type = rand() < 0.3 ? '&type=DocumentaryUnit' : '';
    const page = rand() < 0.8 ? '' : `&page=${2 + Math.floor(rand() * 3)}`;
    return `/api/v1/search?q=${encodeURIComponent(q)}${type}${page}`;
  });
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

const round = (value: number) => Math.round(value * 100) / 100;

function latencies(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50Ms: round(percentile(sorted, 0.5)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** Commits the finding aid into `repository`; its time end to end and the ids it created. */
async function commit(port: number, token: string, repository: string, file: string) {
  const started = performance.now();
  const response = await fetch(
    `http://127.0.0.1:${port}/import/ead?scope=${repository}&commit=true&tag=bench.xml`,
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'X-User': 'bench', 'Content-Type': 'application/xml' },
      body: readFileSync(file),
    },
  );
  const answer = (await response.json()) as { created: number; created_keys: Record<string, string[]> };
  if (response.status !== 201)
    throw new Error(`import answered ${response.status}: ${JSON.stringify(answer)}`);
  return {
    seconds: round((performance.now() - started) / 1000),
    created: answer.created,
    ids: answer.created_keys['bench.xml'],
  };
}

/**
 * Five readers, each sending a request every `READER_INTERVAL_MS` (or as soon as the last is
 * answered, when that takes longer), until `stop` resolves: their latencies, and any error.
 */
async function readWhile(port: number, token: string, unitIds: string[], stop: Promise<unknown>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: READERS });
  const times: number[] = [];
  let errors = 0;
  let done = false;
  void stop.finally(() => (done = true));
  const get = (urlPath: string) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: urlPath,
            agent,
            headers: { Authorization: `Bearer ${token}`, Accept: JSONAPI_MEDIA_TYPE },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              times.push(performance.now() - started);
              if (res.statusCode !== 200) errors++;
              resolve();
            });
          },
        )
        .on('error', () => {
          errors++;
          resolve();
        });
    });
  const searches = searchPaths(100_000, 7);
  const reader = async (index: number) => {
    const rand = random(index + 1);
    for (let turn = 0; !done; turn++) {
      const next = performance.now() + READER_INTERVAL_MS;
      await get(
        turn % 2 === 0
          ? `/api/v1/${unitIds[Math.floor(rand() * unitIds.length)]}`
          : searches[(turn * READERS + index) % searches.length],
      );
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
  };
  await Promise.all(Array.from({ length: READERS }, (_, index) => reader(index)));
  agent.destroy();
  return { ...latencies(times), errors };
}

async function searches(port: number, token: string, seed: number) {
  const paths = searchPaths(SEARCHES, seed);
  const result = await replayInChild({
    port,
    headers: { Authorization: `Bearer ${token}`, Accept: JSONAPI_MEDIA_TYPE },
    paths,
    clients: SEARCH_CLIENTS,
    openingPath: '/api/v1',
  });
  return { ...latencies(result.latenciesMs), errors: result.errors };
}

export async function main(): Promise<object> {
  const bench = await startBenchApp('mixed');
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'mixed-ead-')), 'units.ead.xml');
  const service = await (async () => {
    for (const repository of ['warmup', 'quiet', 'busy']) await addRepository(bench.store, repository);
    const bytes = await writeEad(file, { units: UNIT_COUNT, fanOut: 10, depth: 5 });
    progress(`generated ${UNIT_COUNT} units, ${bytes} bytes`);
    // The service as `npm start` runs it, with the default settings, on the store just made; but
    // without the portal's rate limit, which the benchmark's one token would pass in a second.
    return spawnService([...process.execArgv, path.join(ROOT, 'src', 'main.ts')], {
      ...bench.graphEnv,
      LOG_LEVEL: 'silent',
      PORTAL_RATE_LIMIT: '0',
    });
  })();
  try {
    await untilHealthy(service);
    const importToken = await bench.token('import');
    const portalToken = await bench.token('portal');
    const { port } = service;
    // A small import first: the import worker starts, which the timed commits should not pay.
    const warmup = `${file}.small.xml`;
    await writeEad(warmup, { units: 100, fanOut: 10, depth: 2 });
    await commit(port, importToken, 'warmup', warmup);

    const quiet = await commit(port, importToken, 'quiet', file);
    // From the service's start to the end of the commit with nothing else running: the import's peak.
    const peakRssMb = service.peakRssMb();
    progress(`commit without readers: ${quiet.seconds} s, the service's peak RSS ${peakRssMb} MB`);
    const unitIds = quiet.ids.filter((_, index) => index % 97 === 0);
    // The readers first read the version the quiet commit made for a while on their own: what they
    // meet during the next commit is then what that commit does to them, not their first reads.
    const beforeCommit = await readWhile(
      port,
      portalToken,
      unitIds,
      new Promise((resolve) => setTimeout(resolve, READERS_ALONE_MS)),
    );
    progress(`readers before the commit: ${JSON.stringify(beforeCommit)}`);
    const committing = commit(port, importToken, 'busy', file);
    const readers = await readWhile(port, portalToken, unitIds, committing);
    const busy = await committing;
    progress(`commit with readers: ${busy.seconds} s; readers ${JSON.stringify(readers)}`);
    const loadAverage = loadavg()[0];
    const afterCommit = await searches(port, portalToken, 1);
    progress(`searches right after the commit: ${JSON.stringify(afterCommit)}`);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    const later = await searches(port, portalToken, 2);
    progress(`fresh searches 15 s later: ${JSON.stringify(later)}`);
    return {
      units: UNIT_COUNT,
      note:
        'on a machine shared with other work: latencies vary with its load (loadAverage1m, two ' +
        'cores); compare figures of one run',
      loadAverage1m: round(loadAverage),
      commit: {
        withoutReadersSeconds: quiet.seconds,
        servicePeakRssMbAfterIt: peakRssMb,
        withReadersSeconds: busy.seconds,
        growth: round(busy.seconds / quiet.seconds),
        target: `growth <= ${TARGETS.commitGrowth}`,
      },
      readersBeforeCommit: { seconds: READERS_ALONE_MS / 1000, ...beforeCommit },
      readersDuringCommit: {
        readers: READERS,
        requestsPerSecondEach: 1000 / READER_INTERVAL_MS,
        ...readers,
        target: `p99 < ${TARGETS.readerP99Ms} ms, max < ${TARGETS.readerMaxMs} ms`,
      },
      searchesAfterCommit: {
        clients: SEARCH_CLIENTS,
        rightAfter: afterCommit,
        fifteenSecondsLater: later,
        p99Ratio: round(afterCommit.p99Ms / later.p99Ms),
        target: `p99Ratio <= ${TARGETS.searchP99Ratio}`,
      },
    };
  } finally {
    await service.stop();
    await bench.close();
  }
}

runWhenMain(module, main);
