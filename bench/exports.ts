/**
 * Export benchmark (issue 42): a repository of `BENCH_EXPORT_UNITS` generated units in
 * `BENCH_EXPORT_FONDS` finding aids (lean units by default, `BENCH_UNIT_SIZE=full` for full ones)
 * is imported into the real app, then its ZIP of EAD 2002 and of EAD3 finding aids
 * (`GET /export/repositories/{id}/ead`, `…/ead3`) is read over HTTP to the end, and the repository's
 * OAI-PMH set is harvested in full (`ListRecords`, `oai_dc`, every resumption token followed), each
 * timed: units per second, bytes, and the resident set at the phase's peak (`sampledMemory`), which
 * stays flat in the units when the answers stream; the import's peak is the process's. On SQLite by
 * default, on the Neo4j database `BENCH_GRAPH_URL` names otherwise (bench-store.ts). Prints one
 * JSON object.
 *
 * `node -r ts-node/register/transpile-only bench/exports.ts`
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addNamedItem } from '../src/named-items/named-item';
import { UnitSize, writeEad } from './ead-generator';
import { BENCH_GRAPH_URL } from './support/bench-store';
import { BenchApp, runWhenMain, startBenchApp, timedImport } from './support/bench-app';
import { sampledMemory } from './support/memory-sampler';

const UNITS = Number(process.env.BENCH_EXPORT_UNITS ?? 2_000);
const FONDS = Math.max(1, Number(process.env.BENCH_EXPORT_FONDS ?? 4));
const UNIT_SIZE: UnitSize = process.env.BENCH_UNIT_SIZE === 'full' ? 'full' : 'lean';
const FAN_OUT = 10;
const REPOSITORY = 'bench_repository';

/** Imports `FONDS` generated finding aids of `UNITS / FONDS` units each, their top ids told apart. */
async function loadRepository(bench: BenchApp, folder: string): Promise<number> {
  await addNamedItem(bench.store, 'Repository', REPOSITORY);
  await bench.store.write((tx) => tx.addEdges([{ from: REPOSITORY, type: 'hasCountry', to: 'nl' }]));
  const token = await bench.token('import');
  const perFonds = Math.max(1, Math.floor(UNITS / FONDS));
  let units = 0;
  for (let fonds = 0; fonds < FONDS; fonds++) {
    const file = path.join(folder, `fonds-${fonds}.xml`);
    await writeEad(file, { units: perFonds, fanOut: FAN_OUT, depth: 8, unitSize: UNIT_SIZE });
    // The generator names every top unit BENCH; each fonds here gets a name of its own.
    const body = Buffer.from(
      (await readFile(file, 'utf8')).replace('<unitid>BENCH</unitid>', `<unitid>BENCH${fonds}</unitid>`),
    );
    const answer = await timedImport(bench, token, {
      endpoint: 'ead',
      query: { scope: REPOSITORY, commit: 'true' },
      contentType: 'application/xml',
      body,
    });
    units += Number(answer.created);
  }
  return units;
}

/** Reads a repository's ZIP to its end; its size and how long it took. */
async function timedZip(
  bench: BenchApp,
  token: string,
  version: 'ead' | 'ead3',
  units: number,
): Promise<object> {
  const started = performance.now();
  const response = await fetch(
    `http://127.0.0.1:${bench.port}/export/repositories/${REPOSITORY}/${version}`,
    {
      headers: { Authorization: `Bearer ${token}` },
    },
  );
  if (response.status !== 200 || response.body === null) {
    throw new Error(`export answered ${response.status}: ${await response.text()}`);
  }
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).length;
  const seconds = (performance.now() - started) / 1000;
  return { seconds, bytes, unitsPerSecond: Math.round(units / seconds) };
}

/** The text of the resumption token an OAI-PMH list answer ends with; none on its last page. */
function resumptionToken(xml: string): string | undefined {
  const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
  return token === undefined ? undefined : token.replace(/&amp;/g, '&');
}

/** Harvests the repository's set as a harvester would: `ListRecords`, then each resumption token. */
async function timedHarvest(bench: BenchApp, token: string): Promise<object> {
  const started = performance.now();
  let query = `verb=ListRecords&metadataPrefix=oai_dc&set=nl:${REPOSITORY}`;
  let records = 0;
  let requests = 0;
  let bytes = 0;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${bench.port}/oai?${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const xml = await response.text();
    if (response.status !== 200) throw new Error(`OAI-PMH answered ${response.status}: ${xml.slice(0, 300)}`);
    requests++;
    bytes += Buffer.byteLength(xml);
    records += xml.split('<record>').length - 1;
    const next = resumptionToken(xml);
    if (next === undefined) break;
    query = `verb=ListRecords&resumptionToken=${encodeURIComponent(next)}`;
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds, records, requests, bytes, recordsPerSecond: Math.round(records / seconds) };
}

/**
 * A phase's figures with the resident set as it starts and at its peak: what the phase itself
 * adds, apart from what the import before it left resident.
 */
async function measured(work: () => Promise<object>): Promise<object> {
  const rssAtStartMb = Math.round(process.memoryUsage().rss / (1024 * 1024));
  const { result, memoryAtPeak } = await sampledMemory(work);
  return { ...result, rssAtStartMb, rssAtPeakMb: memoryAtPeak.rssMb, memoryAtPeak };
}

export async function main(): Promise<object> {
  const folder = await mkdtemp(path.join(tmpdir(), 'exports-bench-'));
  const bench = await startBenchApp('exports');
  try {
    const units = await loadRepository(bench, folder);
    const token = await bench.token('portal');
    const ead = await measured(() => timedZip(bench, token, 'ead', units));
    const ead3 = await measured(() => timedZip(bench, token, 'ead3', units));
    const harvest = await measured(() => timedHarvest(bench, token));
    return {
      store: BENCH_GRAPH_URL === undefined ? 'sqlite' : 'neo4j',
      units,
      fonds: FONDS,
      unitSize: UNIT_SIZE,
      ead,
      ead3,
      harvest,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await bench.close();
    await rm(folder, { recursive: true, force: true });
  }
}

runWhenMain(module, main);
