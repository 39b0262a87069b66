/**
 * EAD import benchmark (docs/performance.md lists the targets): a generated finding aid of 100,000 units is parsed by bare
 * saxes, read by the EAD reader alone, then imported through the real import service (the one
 * `POST /import/ead` calls) as a dry run, committed, imported again unchanged (read again, each
 * unit found unchanged), and imported again as a document whose bytes differ (a comment
 * appended) but whose units do not (read again, each unit found unchanged). Each phase runs
 * in a child process of its own, which reports its time, its CPU time (the main thread's apart, on
 * Linux) and its peak RSS. Targets: commit at most 4× and re-import at most 2× the parse-only time,
 * peak RSS under 300 MB.
 *
 * The document's units are as large as a real finding aid's (some 2.9 KB, see `ead-generator.ts`;
 * before generator version 2 they were half as large). The import phases include spooling the
 * body to a file, as the service does.
 *
 * The children, and the reading worker they start, compile the sources with SWC
 * (`scripts/swc-register.js`), not with the TypeScript compiler ts-node runs, which would count in
 * their time, CPU and memory. Each reports its memory where its resident set peaked
 * (`memoryAtPeak`, `support/memory-sampler.ts`). An import phase starts once the service has read
 * ahead for searches what a service started a while ago would have read (`readAheadForSearch`):
 * that reading, done as a service starts, would otherwise run during the measured import.
 *
 * `node -r ./scripts/swc-register.js bench/ead-import.ts` (env `BENCH_UNITS`,
 * `BENCH_FAN_OUT`, `BENCH_DEPTH`, `BENCH_UNIT_SIZE=lean` to change the document's shape; `BENCH_NODE_OPTIONS` to run the
 * phases with Node options, such as a heap limit or `--cpu-prof`, as a deployment would;
 * `BENCH_PHASES`, e.g. `parse,read`, to run only some phases; `BENCH_HEAP_SNAPSHOT_MB` to write a heap
 * snapshot of a phase's main thread into `bench/out` once its heap holds that many MB; `BENCH_GRAPH_URL` (with
 * `NEO4J_PASSWORD`) to import into the Neo4j database there, emptied first, and measure last the
 * floor of `support/neo4j-floor.ts` beside the commit; `BENCH_DATABASE` to keep the store
 * in that file, so that a later run can measure `reimport` alone; `BENCH_DOCUMENT` to read an
 * existing document instead, such as a real finding aid). Prints one JSON object; each import's
 * `result` has its phase timings (`ImportTimings`).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { appendFile, mkdir, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { depthToHold, generatedEad } from './ead-generator';
import { OUT, ROOT } from './support/bench-paths';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { UsersService } from '../src/auth/users.service';
import { ImportService } from '../src/import/import.service';
import type { ImportJob } from '../src/import-jobs/import-job';
import { GraphStore, type ItemWrite } from '../src/graph/graph-store';
import { addRepository, benchStoreEnv, emptyBenchStore } from './support/bench-store';
import { bareUnwindImport } from './support/neo4j-floor';
import { parseOnly, readItems, readOnly } from './support/ead-reading';
import { measure, Measurement } from './support/phase-measure';
import { SqliteGraphStore } from '../src/graph/sqlite/sqlite-graph-store';
import { tokenFileOf } from '../src/graph/sqlite/sqlite-token-store';
import { WORKER_YOUNG_GENERATION_MB } from '../src/import/module-worker';

const UNITS = Number(process.env.BENCH_UNITS ?? 100_000);
const FAN_OUT = Number(process.env.BENCH_FAN_OUT ?? 10);
const SHAPE = {
  units: UNITS,
  fanOut: FAN_OUT,
  // Five levels, or as many as the units need (a million units want six).
  depth: Number(process.env.BENCH_DEPTH ?? depthToHold(UNITS, FAN_OUT, 5)),
  unitSize: process.env.BENCH_UNIT_SIZE === 'lean' ? ('lean' as const) : ('full' as const),
};
/** Parse-only and reader-only runs are repeated and the fastest kept: a shared machine is noisy. */
const REPEATS = 3;
const TARGETS = { commitToParse: 4, reimportToParse: 2, peakRssMb: 300 };
const REPOSITORY = 'r1';
const USER = 'bench';
const CHUNK_BYTES = 64 * 1024;
/** How the benchmark's reading alone sees its document: the repository it is read into, in chunks. */
const READING = { repository: REPOSITORY, user: USER, chunkBytes: CHUNK_BYTES };

type Phase = 'parse' | 'read' | 'setup' | 'dry-run' | 'commit' | 'reimport' | 'reimport-rewritten' | 'floor';

/** Where the children's SWC hook is (`scripts/swc-register.js`). */
const SWC_REGISTER = path.join(__dirname, '..', 'scripts', 'swc-register.js');

// ---------------------------------------------------------------------------------------------
// Child side: one phase, measured.

/** The floor on Neo4j (`support/neo4j-floor.ts`) for the items of `file`, into an emptied store. */
async function floor(file: string, database: string): Promise<Measurement> {
  const writes: ItemWrite[] = [];
  for await (const item of readItems(file, READING)) writes.push(item);
  await setUp(database);
  return measure(() => bareUnwindImport(writes));
}

/** The application as `main.ts` builds it, without HTTP, on the benchmark's store. */
async function withApp<T>(database: string, work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  Object.assign(process.env, benchStoreEnv(database));
  process.env.LOG_LEVEL = 'silent';
  // The import run itself, in this process, as the figures beside it (saxes alone) are.
  process.env.IMPORT_RUNNER = 'inline';
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

async function setUp(database: string): Promise<void> {
  await emptyBenchStore();
  await withApp(database, async (app) => {
    await app.get(UsersService).add(USER);
    await addRepository(app.get(GraphStore), REPOSITORY);
  });
}

/** The request body as the import service reads it: a stream with headers. */
function requestBody(file: string): IncomingMessage {
  const headers = { 'content-type': 'application/xml', 'content-length': String(statSync(file).size) };
  return Object.assign(createReadStream(file, { highWaterMark: CHUNK_BYTES }), {
    headers,
  }) as unknown as IncomingMessage;
}

async function importEad(file: string, database: string, commit: boolean): Promise<Measurement> {
  // A document past the service's default body limit (a million units) is still the one measured.
  process.env.IMPORT_MAX_BODY_BYTES ??= String(statSync(file).size);
  return withApp(database, async (app) => {
    const store = app.get(GraphStore);
    if (store instanceof SqliteGraphStore) await store.readAheadForSearch();
    return measure(async () => {
      let answer: Record<string, unknown> = {};
      let answerBytes = 0;
      let job: ImportJob | undefined;
      const request = {
        endpoint: 'ead',
        user: USER,
        query: { scope: REPOSITORY, commit: String(commit), tag: path.basename(file) },
        contentType: 'application/xml',
        body: requestBody(file),
      };
      await app.get(ImportService).import(request, {
        started: (started) => (job = started),
        done: async (file) => {
          // As the run wrote it for the controller to send.
          answerBytes = statSync(file).size;
          answer = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        },
      });
      const { created, updated, unchanged, errors } = answer;
      // The job's phase timings, which go on to the commit (the answer's end before it).
      const timings = job?.document().log?.timings;
      return {
        created,
        updated,
        unchanged,
        errors: Object.keys(errors as object).length,
        answerBytes,
        timings,
      };
    });
  });
}

async function runPhase(phase: Phase, file: string, database: string): Promise<Measurement | undefined> {
  switch (phase) {
    case 'parse':
      return measure(() => parseOnly(file, CHUNK_BYTES));
    case 'read':
      return measure(() => readOnly(file, READING));
    case 'setup':
      await setUp(database);
      return undefined;
    case 'dry-run':
      return importEad(file, database, false);
    case 'commit':
    case 'reimport':
    case 'reimport-rewritten':
      return importEad(file, database, true);
    case 'floor':
      return floor(file, database);
  }
}

// ---------------------------------------------------------------------------------------------
// Parent side: the document, one child per phase.

/** What the phases read: the generated document, or the one `BENCH_DOCUMENT` names. */
async function document(): Promise<{ file: string; description: Record<string, unknown> }> {
  const given = process.env.BENCH_DOCUMENT;
  if (given !== undefined) {
    const file = path.resolve(given);
    return { file, description: { file: path.basename(file), bytes: statSync(file).size } };
  }
  const { file, bytes } = await generatedEad(SHAPE);
  return { file, description: { ...SHAPE, bytes, bytesPerUnit: Math.round(bytes / SHAPE.units) } };
}

/**
 * The document with a comment appended, under the same name: the same units in other bytes.
 */
async function rewrittenCopy(file: string): Promise<string> {
  const folder = path.join(OUT, `rewritten-${process.pid}`);
  await mkdir(folder, { recursive: true });
  const copy = path.join(folder, path.basename(file));
  await pipeline(createReadStream(file), createWriteStream(copy));
  await appendFile(copy, '\n<!-- rewritten -->\n');
  return copy;
}

const NODE_OPTIONS = (process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter((option) => option !== '');
/**
 * The import phases import on their main thread, which in the service is the import worker's: they
 * get that worker's young generation, whose two semi-spaces and large-object space are a third of
 * it each. The parse floor and the reader alone run on Node's defaults, as a plain parse would.
 * `BENCH_NODE_OPTIONS` may name another size.
 */
const IMPORT_THREAD_HEAP = NODE_OPTIONS.some((option) => option.startsWith('--max-semi-space-size'))
  ? []
  : [`--max-semi-space-size=${WORKER_YOUNG_GENERATION_MB / 3}`];
const importsIn = (phase: Phase) => phase !== 'parse' && phase !== 'read';

function child(script: string, phase: Phase, file: string, database: string): Measurement | undefined {
  const run = spawnSync(
    process.execPath,
    // Compiled with SWC, whatever this process runs under; then the options given.
    [
      '-r',
      SWC_REGISTER,
      ...(importsIn(phase) ? IMPORT_THREAD_HEAP : []),
      ...NODE_OPTIONS,
      script,
      '--phase',
      phase,
      '--file',
      file,
      '--database',
      database,
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (run.status !== 0) throw new Error(`phase ${phase} exited with ${run.status ?? run.signal}`);
  const last = run.stdout.trim().split('\n').pop() ?? '';
  return last === '' ? undefined : (JSON.parse(last) as Measurement);
}

function fastest(runs: Measurement[]): Measurement {
  return runs.reduce((best, run) => (run.ms < best.ms ? run : best));
}

type MeasuredPhase = Exclude<Phase, 'setup'>;

/** The measured phases, in the order they run, with the names the JSON output gives them. */
const REPORTED: Readonly<Record<MeasuredPhase, string>> = {
  parse: 'parseOnly',
  read: 'readerOnly',
  'dry-run': 'dryRun',
  commit: 'commit',
  reimport: 'reimport',
  'reimport-rewritten': 'reimportRewritten',
  floor: 'neo4jFloor',
};
const PHASES = Object.keys(REPORTED) as MeasuredPhase[];
/** On Neo4j (`BENCH_GRAPH_URL`), the floor runs last: it empties the store. */
const ON_NEO4J = Boolean(process.env.BENCH_GRAPH_URL?.trim());

/** The phases `BENCH_PHASES` names, by default all (the floor only on Neo4j). */
function selectedPhases(): Set<MeasuredPhase> {
  const names =
    process.env.BENCH_PHASES?.split(',').map((name) => name.trim()) ??
    PHASES.filter((phase) => phase !== 'floor' || ON_NEO4J);
  const unknown = names.filter((name) => !(name in REPORTED));
  if (unknown.length > 0)
    throw new Error(`Unknown phase(s) ${unknown.join(', ')}; known: ${PHASES.join(', ')}`);
  return new Set(names as MeasuredPhase[]);
}

/** Each phase's time over the parse-only time (`commitToParse`, …), when both were measured. */
function ratios(runs: Partial<Record<MeasuredPhase, Measurement>>): Record<string, number> {
  const ratioOf: Record<string, number> = {};
  const parse = runs.parse?.ms;
  for (const phase of PHASES) {
    const ms = runs[phase]?.ms;
    if (phase !== 'parse' && parse !== undefined && ms !== undefined) {
      ratioOf[`${REPORTED[phase]}ToParse`] = Math.round((ms / parse) * 100) / 100;
    }
  }
  // The floor's own time is its transaction's, without the driver's connecting.
  const floorMs = runs.floor?.result?.ms as number | undefined;
  if (runs.commit && floorMs) ratioOf.commitToNeo4jFloor = Math.round((runs.commit.ms / floorMs) * 100) / 100;
  return ratioOf;
}

export async function main(): Promise<object> {
  const phases = selectedPhases();
  const { file, description } = await document();
  const script = __filename;
  const keptDatabase = process.env.BENCH_DATABASE;
  const database = keptDatabase ?? path.join(OUT, `ead-import-${process.pid}.db`);
  const repeat = (phase: Phase) =>
    fastest(Array.from({ length: REPEATS }, () => child(script, phase, file, database)!));
  const runs: Partial<Record<MeasuredPhase, Measurement>> = {};
  try {
    for (const phase of PHASES) {
      if (!phases.has(phase)) continue;
      if (phase === 'parse' || phase === 'read') {
        runs[phase] = repeat(phase);
        continue;
      }
      if (phase === 'floor') {
        runs[phase] = child(script, phase, file, database)!;
        continue;
      }
      // A store for the first import phase; a later run may re-import into a kept one.
      const reimport = phase === 'reimport' || phase === 'reimport-rewritten';
      if (!reimport && runs['dry-run'] === undefined) child(script, 'setup', file, database);
      if (phase !== 'reimport-rewritten') {
        runs[phase] = child(script, phase, file, database)!;
        continue;
      }
      const rewritten = await rewrittenCopy(file);
      try {
        runs[phase] = child(script, phase, rewritten, database)!;
      } finally {
        await rm(path.dirname(rewritten), { recursive: true, force: true });
      }
    }
    const peakRssMb = Math.max(...Object.values(runs).map((run) => run.peakRssMb));
    const measured = ratios(runs);
    const met = (ratio: number | undefined, target: number) => (ratio === undefined ? null : ratio <= target);
    return {
      document: description,
      nodeOptions: NODE_OPTIONS.join(' '),
      importNodeOptions: [...IMPORT_THREAD_HEAP, ...NODE_OPTIONS].join(' '),
      ...Object.fromEntries(
        Object.entries(runs).map(([phase, run]) => [REPORTED[phase as MeasuredPhase], run]),
      ),
      peakRssMb,
      ratios: measured,
      targets: TARGETS,
      met: {
        commit: met(measured.commitToParse, TARGETS.commitToParse),
        reimport: met(measured.reimportToParse, TARGETS.reimportToParse),
        peakRss: peakRssMb < TARGETS.peakRssMb,
      },
    };
  } finally {
    if (keptDatabase === undefined) {
      for (const file of [database, tokenFileOf(database)]) {
        for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
      }
    }
  }
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

if (require.main === module) {
  const phase = argument('phase') as Phase | undefined;
  const work =
    phase === undefined
      ? main()
      : runPhase(phase, argument('file') ?? '', argument('database') ?? '').then(
          (measurement) => measurement ?? '',
        );
  work.then(
    (result) => console.log(result === '' ? '' : JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
