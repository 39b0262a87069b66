/**
 * The embedded store's write path alone: `putItems` of units shaped as the EAD reader makes them
 * (one description with a paragraph of text, a date, three access points, an unknown property,
 * a parent edge and a permission-scope edge), children before parents as an EAD stream yields
 * them, in batches of the import run's size, each after a `getHashes` of its ids as the run does.
 *
 *   node -r ts-node/register/transpile-only bench/sqlite-writes.ts [units] [fanOut]
 *
 * Phases, each its own write transaction on one store: `create` (new units, committed),
 * `rewrite` (the same ids, changed content) and `unchanged` (the same ids and content written
 * again). Prints one JSON object: per phase, the best of `BENCH_REPEATS` runs (default 3) in µs of
 * wall and CPU time per unit, for `putItems` alone and for the whole transaction with its commit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ItemWrite } from '../src/graph/graph-store';
import { SqliteGraphStore } from '../src/graph/sqlite/sqlite-graph-store';
import { Bundle } from '../src/items/bundle';

const UNITS = Number(process.argv[2] ?? 20_000);
const FAN_OUT = Number(process.argv[3] ?? 10);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const BATCH = 500;
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
  totalUsPerUnit: number;
  totalCpuUsPerUnit: number;
}

async function writeAll(store: SqliteGraphStore, writes: ItemWrite[]): Promise<Timing> {
  let putNs = 0n;
  let putCpuUs = 0;
  const totalStart = process.hrtime.bigint();
  const totalCpu = process.cpuUsage();
  await store.write(async (tx) => {
    for (let start = 0; start < writes.length; start += BATCH) {
      const batch = writes.slice(start, start + BATCH);
      await tx.getHashes(batch.map((write) => write.bundle.id));
      const cpu = process.cpuUsage();
      const started = process.hrtime.bigint();
      await tx.putItems(batch);
      putNs += process.hrtime.bigint() - started;
      const used = process.cpuUsage(cpu);
      putCpuUs += used.user + used.system;
    }
  });
  const totalNs = process.hrtime.bigint() - totalStart;
  const totalCpuUsed = process.cpuUsage(totalCpu);
  const perUnit = (us: number) => Math.round((us / writes.length) * 10) / 10;
  return {
    putUsPerUnit: perUnit(Number(putNs) / 1000),
    putCpuUsPerUnit: perUnit(putCpuUs),
    totalUsPerUnit: perUnit(Number(totalNs) / 1000),
    totalCpuUsPerUnit: perUnit(totalCpuUsed.user + totalCpuUsed.system),
  };
}

function best(runs: Timing[]): Timing {
  return runs.reduce((fastest, run) => (run.totalUsPerUnit < fastest.totalUsPerUnit ? run : fastest));
}

async function main(): Promise<object> {
  const tree = treeIds();
  const version = (v: number) => tree.map(({ id, parentId }, seed) => unitWrite(id, parentId, seed, v));
  const phases: Record<string, Timing[]> = { create: [], rewrite: [], unchanged: [] };
  for (let run = 0; run < REPEATS; run++) {
    const folder = mkdtempSync(path.join(tmpdir(), 'sqlite-writes-'));
    const store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
    try {
      await store.write((tx) =>
        tx.putItems([
          { bundle: { id: REPOSITORY, type: 'Repository', data: {}, relations: {} }, hash: 'r', edges: {} },
        ]),
      );
      phases.create.push(await writeAll(store, version(1)));
      phases.rewrite.push(await writeAll(store, version(2)));
      phases.unchanged.push(await writeAll(store, version(2)));
    } finally {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return {
    units: tree.length,
    fanOut: FAN_OUT,
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
