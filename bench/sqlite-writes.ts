/**
 * The embedded store's write path alone: `putItems` of units shaped as the EAD reader makes them
 * (one description with a paragraph of text, a date, three access points, an unknown property,
 * a parent edge and a permission-scope edge), children before parents as an EAD stream yields
 * them, in batches of the import run's size, each after a `getHashes` of its ids as the run does.
 *
 *   node -r ts-node/register/transpile-only bench/sqlite-writes.ts [units] [fanOut]
 *
 * Phases, each one write transaction on the store file, opened for it and closed after it:
 * `create` (new units, committed), `rewrite` (the same ids, changed content) and `unchanged` (the
 * same ids and content written again). Prints one JSON object: per phase, the run of
 * `BENCH_REPEATS` (default 3) that took the least CPU time for its transaction (on a shared
 * machine, wall time says more about the neighbours), in µs of wall and CPU time per unit, for
 * `putItems` alone, for the whole transaction with its commit, and (CPU) for the close that
 * follows, which waits for the WAL checkpoint the store runs after a commit.
 *
 * Each batch reaches the store as the import's main thread receives it from the reading worker: a
 * structured clone. `BENCH_WIDE_STRINGS=1` holds its strings two bytes per character, as the EAD
 * reader's are when the decoded text they are cut from holds any character beyond Latin-1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { ItemWrite } from '../src/graph/graph-store';
import { SqliteGraphStore } from '../src/graph/sqlite/sqlite-graph-store';
import { BATCH_SIZE } from '../src/import/import-run';
import { Bundle } from '../src/items/bundle';

const UNITS = Number(process.argv[2] ?? 20_000);
const FAN_OUT = Number(process.argv[3] ?? 10);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const WIDE_STRINGS = process.env.BENCH_WIDE_STRINGS === '1';
const REPOSITORY = 'nl-r1';
const WORDS = 'camp ghetto transport lists members community relief survivors trial press maps census'.split(
  ' ',
);

/** Deterministic pseudo-random words, so that every run indexes the same text. */
function words(seed: number, count: number): string {
  return Array.from({ length: count }, (_, index) => WORDS[(seed * 7 + index * 13) % WORDS.length]).join(' ');
}

function unitWrite(id: string, parentId: string, seed: number, version: number): ItemWrite {
  const descriptionId = `${id}.eng-bench_eng`;
  const dependent = (
    relation: string,
    index: number,
    type: Bundle['type'],
    data: Bundle['data'],
  ): Bundle => ({
    id: `${descriptionId}/${relation}/${index}`,
    type,
    data,
    relations: {},
  });
  const description: Bundle = {
    id: descriptionId,
    type: 'DocumentaryUnitDescription',
    data: {
      creationProcess: 'IMPORT',
      levelOfDescription: 'file',
      name: `${words(seed, 5)} ${id} v${version}`,
      extentAndMedium: `${seed % 40} folders`,
      languageOfMaterial: 'deu',
      scopeAndContent: words(seed + version, 40 + (seed % 160)),
      languageCode: 'eng',
      sourceFileId: 'BENCH#ENG',
      identifier: 'BENCH#ENG',
    },
    relations: {
      hasDate: [
        dependent('hasDate', 0, 'DatePeriod', {
          startDate: '1911-01-01',
          endDate: '1917-12-31',
          description: '1911-1917',
          type: 'creation',
          precision: 'year',
        }),
      ],
      relatesTo: [
        dependent('relatesTo', 0, 'AccessPoint', { type: 'subject', name: WORDS[seed % WORDS.length] }),
        dependent('relatesTo', 1, 'AccessPoint', { type: 'person', name: `Person ${seed % 50}` }),
        dependent('relatesTo', 2, 'AccessPoint', { type: 'place', name: `Place ${seed % 30}` }),
      ],
      hasUnknownProperty: [dependent('hasUnknownProperty', 0, 'UnknownProperty', { ead_language: 'German' })],
    },
  };
  const parentEdge = parentId === REPOSITORY ? 'heldBy' : 'childOf';
  return {
    bundle: {
      id,
      type: 'DocumentaryUnit',
      data: { identifier: id },
      relations: { describes: [description] },
    },
    hash: `hash-${id}-v${version}`,
    edges: { [parentEdge]: [parentId], hasPermissionScope: [parentId] },
  };
}

/**
 * A tree of `UNITS` units below the repository, children before their parent (post-order): unit
 * k's children are units k * FAN_OUT + 1 … k * FAN_OUT + FAN_OUT, so every level is full but the last.
 */
function treeIds(): { id: string; parentId: string }[] {
  const ordered: { id: string; parentId: string }[] = [];
  const visit = (index: number, id: string, parentId: string): void => {
    for (let child = 1; child <= FAN_OUT && index * FAN_OUT + child < UNITS; child++) {
      visit(index * FAN_OUT + child, `${id}-${child}`, id);
    }
    ordered.push({ id, parentId });
  };
  visit(0, `${REPOSITORY}-bench`, REPOSITORY);
  return ordered;
}

interface Timing {
  putUsPerUnit: number;
  putCpuUsPerUnit: number;
  /** The whole write transaction: hash look-ups, `putItems`, commit. */
  transactionUsPerUnit: number;
  transactionCpuUsPerUnit: number;
  /** Closing the store afterwards: what the commit left to do (the WAL checkpoint, mostly). */
  closeCpuUsPerUnit: number;
}

function elapsed<T>(work: () => Promise<T>): Promise<{ result: T; ns: bigint; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  return work().then((result) => {
    const used = process.cpuUsage(cpu);
    return { result, ns: process.hrtime.bigint() - started, cpuUs: used.user + used.system };
  });
}

/** A string of the same text held two bytes per character (a slice of a two-byte string is). */
function wide(value: unknown): unknown {
  if (typeof value === 'string') return `\u0100${value}`.slice(1);
  if (Array.isArray(value)) return value.map(wide);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, wide(entry)]));
}

/** The writes in the import run's batches, each cloned as a message from the reading worker is. */
function received(writes: ItemWrite[]): ItemWrite[][] {
  const batches: ItemWrite[][] = [];
  for (let start = 0; start < writes.length; start += BATCH_SIZE) {
    const batch = writes.slice(start, start + BATCH_SIZE);
    batches.push(deserialize(serialize(WIDE_STRINGS ? wide(batch) : batch)) as ItemWrite[]);
  }
  return batches;
}

/** One phase on a store opened for it, and closed afterwards. */
async function writeAll(file: string, writes: ItemWrite[]): Promise<Timing> {
  const batches = received(writes);
  const store = await SqliteGraphStore.open(file);
  let putNs = 0n;
  let putCpuUs = 0;
  const transaction = await elapsed(() =>
    store.write(async (tx) => {
      for (const batch of batches) {
        await tx.getHashes(batch.map((write) => write.bundle.id));
        const put = await elapsed(() => tx.putItems(batch));
        putNs += put.ns;
        putCpuUs += put.cpuUs;
      }
    }),
  );
  const close = await elapsed(() => store.close());
  const perUnit = (us: number) => Math.round((us / writes.length) * 10) / 10;
  return {
    putUsPerUnit: perUnit(Number(putNs) / 1000),
    putCpuUsPerUnit: perUnit(putCpuUs),
    transactionUsPerUnit: perUnit(Number(transaction.ns) / 1000),
    transactionCpuUsPerUnit: perUnit(transaction.cpuUs),
    closeCpuUsPerUnit: perUnit(close.cpuUs),
  };
}

function best(runs: Timing[]): Timing {
  return runs.reduce((cheapest, run) =>
    run.transactionCpuUsPerUnit < cheapest.transactionCpuUsPerUnit ? run : cheapest,
  );
}

async function main(): Promise<object> {
  const tree = treeIds();
  const version = (v: number) => tree.map(({ id, parentId }, seed) => unitWrite(id, parentId, seed, v));
  const phases: Record<string, Timing[]> = { create: [], rewrite: [], unchanged: [] };
  for (let run = 0; run < REPEATS; run++) {
    const folder = mkdtempSync(path.join(tmpdir(), 'sqlite-writes-'));
    const file = path.join(folder, 'archive.db');
    try {
      const store = await SqliteGraphStore.open(file);
      const repository: Bundle = { id: REPOSITORY, type: 'Repository', data: {}, relations: {} };
      await store.write((tx) => tx.putItems([{ bundle: repository, hash: 'r', edges: {} }]));
      await store.close();
      phases.create.push(await writeAll(file, version(1)));
      phases.rewrite.push(await writeAll(file, version(2)));
      phases.unchanged.push(await writeAll(file, version(2)));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return {
    units: tree.length,
    fanOut: FAN_OUT,
    wideStrings: WIDE_STRINGS,
    ...Object.fromEntries(Object.entries(phases).map(([phase, runs]) => [phase, best(runs)])),
  };
}

main().then(
  (result) => console.log(JSON.stringify(result)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
