/**
 * CSV import benchmark (issue 5: report the time to import the largest CSV tried). Generates a
 * table of documentary units with the reference's column names (one in ten a child of an earlier
 * row), then posts it to the real app on a temporary SQLite store: dry run, commit and unchanged
 * re-import, each timed end to end over HTTP, beside the time to parse the table alone. Prints one
 * JSON object.
 *
 * `node -r ts-node/register/transpile-only bench/csv-import.ts` (env `BENCH_ROWS` to scale).
 */
import { readCsvRecords } from '../src/import/parsing/tabular/csv-records';
import { importPhasesBenchmark, runWhenMain } from './support/bench-app';
import { addRepository } from './support/bench-store';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const REPOSITORY = 'nl-r1';
const HEADER = [
  'objectIdentifier',
  'parentIdentifier',
  'name',
  'unitDates',
  'levelOfDescription',
  'extentAndMedium',
  'creatorAccessPoint',
  'scopeAndContent',
  'languageOfMaterial',
  'scriptOfMaterial',
  'languageCode',
  'sourceFileId',
];

function row(index: number): string {
  const id = `kd${index}`;
  const parent = index % 10 === 9 ? `kd${index - 1}` : '';
  return [
    id,
    parent,
    `"Collection ${index}, documents related to the Holocaust"`,
    `${1900 + (index % 50)}-${1950 + (index % 50)}`,
    parent === '' ? 'collection' : 'file',
    `"${index % 90} folders, ${index % 7} boxes"`,
    'Kazerne Dossin',
    `"Miscellaneous documents entrusted to the archive, item ${index}: letters, ""photographs"" and reports."`,
    'Dutch||French||German',
    'Latin',
    'English',
    id,
  ].join(',');
}

function table(): Buffer {
  const lines = [HEADER.join(',')];
  for (let index = 0; index < ROWS; index++) lines.push(row(index));
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function parseSeconds(body: Buffer): Promise<number> {
  const started = performance.now();
  const source = {
    tag: 'bench.csv',
    async *bytes() {
      for (let start = 0; start < body.length; start += 65_536) yield body.subarray(start, start + 65_536);
    },
  };
  let records = 0;
  for await (const _record of readCsvRecords(source, ',')) records += 1;
  if (records !== ROWS + 1) throw new Error(`parsed ${records} records, expected ${ROWS + 1}`);
  return (performance.now() - started) / 1000;
}

export async function main(): Promise<object> {
  return {
    rows: ROWS,
    ...(await importPhasesBenchmark({
      endpoint: 'csv',
      query: { scope: REPOSITORY },
      contentType: 'text/csv',
      body: table(),
      setUp: (store) => addRepository(store, REPOSITORY),
      parseSeconds,
    })),
  };
}

runWhenMain(module, main);
